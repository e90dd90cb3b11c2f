import { ERROR_CODES, SDKError } from '@lousho/core';

/** @deprecated Every code is in `ERROR_CODES`; use it. This table keeps the codes it always had, with the same values. */
export const CLI_ERROR_CODES = {
  LOUSHO_DEPLOY_INVALID: ERROR_CODES.LOUSHO_DEPLOY_INVALID,
  LOUSHO_DEPLOY_BUNDLER_MISSING: ERROR_CODES.LOUSHO_DEPLOY_BUNDLER_MISSING,
  LOUSHO_DEPLOY_BUNDLE_FAILED: ERROR_CODES.LOUSHO_DEPLOY_BUNDLE_FAILED,
  LOUSHO_DEPLOY_NODE_BUILTIN: ERROR_CODES.LOUSHO_DEPLOY_NODE_BUILTIN,
} as const;

export function deployError(code: keyof typeof CLI_ERROR_CODES, message: string, hint: string): SDKError {
  return new SDKError(ERROR_CODES[code], message, { hint });
}
