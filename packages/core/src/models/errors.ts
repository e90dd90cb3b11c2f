/**
 * `registerModel` was given an entry it cannot use. Stand-in with the SDK's error shape
 * (`code` + `hint`) until the shared SDKError lands.
 */
export class ModelInfoError extends Error {
  readonly code = 'LOUSHO_MODEL_INFO_INVALID' as const;
  readonly hint: string;

  constructor(message: string, hint: string) {
    super(`${message} ${hint}`);
    this.name = 'ModelInfoError';
    this.hint = hint;
  }
}
