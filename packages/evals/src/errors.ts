import { SDKError } from '@lousho/core';

/** Stable codes of eval failures. */
export const EVAL_ERROR_CODES = {
  /** An eval, a case, a scorer or a check is malformed (the message says which and why). */
  LOUSHO_EVAL_INVALID: 'LOUSHO_EVAL_INVALID',
  /** A run took longer than the eval's `timeoutMs`. */
  LOUSHO_EVAL_TIMEOUT: 'LOUSHO_EVAL_TIMEOUT',
  /** A judge model's reply was not a JSON object with a score in [0, 1] and a reason. */
  LOUSHO_EVAL_JUDGE_INVALID: 'LOUSHO_EVAL_JUDGE_INVALID',
  /** A scorer returned something that is not a score in [0, 1] with a reason. */
  LOUSHO_EVAL_SCORE_INVALID: 'LOUSHO_EVAL_SCORE_INVALID',
} as const;

export function evalError(code: keyof typeof EVAL_ERROR_CODES, message: string, hint: string): SDKError {
  return new SDKError(EVAL_ERROR_CODES[code], message, { hint });
}
