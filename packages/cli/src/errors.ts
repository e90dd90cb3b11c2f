import { SDKError } from '@lousho/core';

/** Stable codes of `lousho build` failures. */
export const CLI_ERROR_CODES = {
  /** The agent module is missing, or no `--target` adapter has that name. */
  LOUSHO_DEPLOY_INVALID: 'LOUSHO_DEPLOY_INVALID',
  /** esbuild is not installed; `lousho build` bundles with it. */
  LOUSHO_DEPLOY_BUNDLER_MISSING: 'LOUSHO_DEPLOY_BUNDLER_MISSING',
  /** The bundle could not be built (a module not found, a syntax error). */
  LOUSHO_DEPLOY_BUNDLE_FAILED: 'LOUSHO_DEPLOY_BUNDLE_FAILED',
  /** A module the workers bundle needs imports a Node built-in. */
  LOUSHO_DEPLOY_NODE_BUILTIN: 'LOUSHO_DEPLOY_NODE_BUILTIN',
} as const;

export function deployError(code: keyof typeof CLI_ERROR_CODES, message: string, hint: string): SDKError {
  return new SDKError(CLI_ERROR_CODES[code], message, { hint });
}
