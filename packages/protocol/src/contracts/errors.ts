/** The only form in which an error leaves the server: no stack, no cause chain. */
export interface SerializedError {
  code: string;
  message: string;
}
