import { ERROR_CODES, SDKError } from '@lousho/protocol';

/** Thrown when a per-run config function fails; `field` names the option, `cause` is what it threw. */
export class ConfigResolverError extends SDKError {
  readonly field: string;
  constructor(field: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(ERROR_CODES.LOUSHO_CONFIG_RESOLVER_FAILED, `The '${field}' function of the agent config threw: ${detail}`, {
      hint: `Make the '${field}' function return a value for every run (it receives { sessionId, input, metadata }).`,
      cause,
    });
    this.name = 'ConfigResolverError';
    this.field = field;
  }
}
