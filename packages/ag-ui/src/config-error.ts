import { ERROR_CODES, SDKError } from '@lousho/core';

export function invalidConfig(message: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, message);
}
