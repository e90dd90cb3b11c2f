import { CodedError, type ClientErrorCode } from '@lousho/protocol';

/**
 * An error the client reports (through `onError` and `state.error`): a stable `code`, a one-line
 * message, and `status` when an HTTP response was the problem. docs/protocol.md ("Client error
 * codes") says what each code means and what to do.
 */
export class AgentClientError extends CodedError<ClientErrorCode> {
  override name = 'AgentClientError';
}
