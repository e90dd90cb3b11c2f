import { ERROR_CODES, SDKError } from '@lousho/protocol';

/** Parses a stored JSON value; a corrupt one is a clear `LOUSHO_STORAGE_ERROR` naming the key. */
export function parseStored<T>(text: string, key: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new SDKError(ERROR_CODES.LOUSHO_STORAGE_ERROR, `The stored value of '${key}' is not valid JSON.`, {
      hint: 'The storage was edited or damaged; delete that key to start the session over.',
      cause: error,
    });
  }
}
