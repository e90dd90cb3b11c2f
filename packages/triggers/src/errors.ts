import { ERROR_CODES, SDKError } from '@lousho/core';

/** @deprecated Every code is in `ERROR_CODES`; use it. This table keeps the codes it always had, with the same values. */
export const TRIGGER_ERROR_CODES = {
  LOUSHO_INVALID_CRON_EXPRESSION: ERROR_CODES.LOUSHO_INVALID_CRON_EXPRESSION,
  LOUSHO_INVALID_CONFIG: ERROR_CODES.LOUSHO_INVALID_CONFIG,
  LOUSHO_TRIGGER_STATE: ERROR_CODES.LOUSHO_TRIGGER_STATE,
} as const;

export function invalidConfig(message: string, hint: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, message, { hint });
}
