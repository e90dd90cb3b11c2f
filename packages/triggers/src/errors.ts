import { SDKError } from '@lousho/core';

/** Stable codes of the errors this package throws. */
export const TRIGGER_ERROR_CODES = {
  /** A cron expression (or its time zone) cannot be used; the message names the field. */
  LOUSHO_INVALID_CRON_EXPRESSION: 'LOUSHO_INVALID_CRON_EXPRESSION',
  /** An adapter option has a value the adapter cannot use. */
  LOUSHO_INVALID_CONFIG: 'LOUSHO_INVALID_CONFIG',
  /** `listen()` was called twice, or `handleRequest()` before `listen()`. */
  LOUSHO_TRIGGER_STATE: 'LOUSHO_TRIGGER_STATE',
} as const;

export function invalidConfig(message: string, hint: string): SDKError {
  return new SDKError(TRIGGER_ERROR_CODES.LOUSHO_INVALID_CONFIG, message, { hint });
}
