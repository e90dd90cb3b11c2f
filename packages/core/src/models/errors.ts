import { ERROR_CODES, SDKError } from '@lousho/protocol';

/** `registerModel()` was given an entry it cannot use; the message names the field. */
export class ModelInfoError extends SDKError {
  declare readonly code: typeof ERROR_CODES.LOUSHO_MODEL_INFO_INVALID;

  constructor(message: string, hint: string) {
    super(ERROR_CODES.LOUSHO_MODEL_INFO_INVALID, `${message} ${hint}`, { hint });
    this.name = 'ModelInfoError';
  }
}
