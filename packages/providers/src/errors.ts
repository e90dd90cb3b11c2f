import { ERROR_CODES, SDKError } from '@lousho/protocol';

/**
 * A provider broke the streaming contract (e.g. sent argument pieces for a tool call it never
 * started). Code `LOUSHO_PROVIDER_ERROR`, like other provider failures.
 */
export class ProviderStreamError extends SDKError {
  declare readonly code: typeof ERROR_CODES.LOUSHO_PROVIDER_ERROR;

  constructor(message: string, hint: string) {
    super(ERROR_CODES.LOUSHO_PROVIDER_ERROR, message, { hint });
    this.name = 'ProviderStreamError';
  }
}

/** Stable codes of the mock providers' errors. */
export type MockProviderErrorCode =
  /** A mockModel() script ran out. */
  | typeof ERROR_CODES.LOUSHO_MOCK_EXHAUSTED
  /** assertExhausted() found steps that were never used. */
  | typeof ERROR_CODES.LOUSHO_MOCK_UNUSED_STEPS
  /** A script step or an option is malformed. */
  | typeof ERROR_CODES.LOUSHO_INVALID_INPUT;

/**
 * A mock provider was misused by a test: its script ran out, was left unused, or has a bad step.
 * The fix is repeated at the end of the message because test runners show only the message.
 */
export class MockProviderError extends SDKError {
  declare readonly code: MockProviderErrorCode;

  constructor(code: MockProviderErrorCode, message: string, hint: string, options: { cause?: unknown } = {}) {
    super(code, `${message} ${hint}`, { hint, ...options });
    this.name = 'MockProviderError';
  }
}
