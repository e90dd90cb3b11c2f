// The lousho.v1 reader as @lousho/core shipped it (protocol/ of main before lousho.v2), kept
// verbatim to test what an older client in a page that was not reloaded does with a v2 stream.
/** Stable codes of the errors `parseEventStream` throws. */
export const EVENT_STREAM_ERROR_CODES = {
  /** The response status was not 2xx and its body carried no `{ error: { code, message } }`. */
  LOUSHO_STREAM_HTTP_ERROR: 'LOUSHO_STREAM_HTTP_ERROR',
  /** The response is not an event stream (wrong `content-type`). */
  LOUSHO_STREAM_NOT_SSE: 'LOUSHO_STREAM_NOT_SSE',
  /** The response body was already read or locked by someone else. */
  LOUSHO_STREAM_BODY_UNAVAILABLE: 'LOUSHO_STREAM_BODY_UNAVAILABLE',
  /** An event's `data` is not valid JSON. */
  LOUSHO_STREAM_BAD_JSON: 'LOUSHO_STREAM_BAD_JSON',
  /** An event's `data` is JSON but not an object with a string `type`. */
  LOUSHO_STREAM_BAD_EVENT: 'LOUSHO_STREAM_BAD_EVENT',
  /** An event arrived before the stream said which protocol version it speaks. */
  LOUSHO_STREAM_MISSING_VERSION: 'LOUSHO_STREAM_MISSING_VERSION',
  /** The stream speaks a protocol version this client does not know. */
  LOUSHO_STREAM_UNSUPPORTED_VERSION: 'LOUSHO_STREAM_UNSUPPORTED_VERSION',
  /** One event grew past `maxEventSize` characters. */
  LOUSHO_STREAM_EVENT_TOO_LARGE: 'LOUSHO_STREAM_EVENT_TOO_LARGE',
} as const;

export type EventStreamErrorCode = (typeof EVENT_STREAM_ERROR_CODES)[keyof typeof EVENT_STREAM_ERROR_CODES];

export interface CodedErrorOptions {
  /** The HTTP status, for errors about a response. */
  status?: number;
  /** The SSE `id` of the offending event, for errors about one. */
  eventId?: string;
  cause?: unknown;
}

/**
 * The base of the errors a browser client can see (`EventStreamError`, `AgentClientError`): a
 * stable `code` and a one-line message. Lighter than `SDKError` on purpose, since it is in every
 * client bundle: what each code means and how to fix it is documented under the code
 * (docs/protocol.md, "Client error codes"), not carried in every error. `Code` only types the
 * constructor's `code` (the known codes autocomplete; any string goes).
 */
export class CodedError<Code extends string = string> extends Error {
  declare readonly code: string;
  /** The HTTP status, when the problem is a response. */
  declare readonly status: number | undefined;
  /** The SSE `id` of the offending event (its sequence number), when it had one. */
  declare readonly eventId: string | undefined;

  // The one constructor of the family: a subclass only names itself (in a field), which is the
  // cheapest way to the same properties.
  constructor(code: Code | (string & {}), message: string, options?: CodedErrorOptions) {
    // The options go to Error whole: it takes `cause` when there is one and ignores the rest.
    super(message, options);
    this.code = code;
    this.status = options?.status;
    this.eventId = options?.eventId;
  }
}

/** The options of an `EventStreamError` (the same as any `CodedError`'s). */
export type EventStreamErrorOptions = CodedErrorOptions;

/**
 * A stream that cannot be read as agent events. `code` is one of `EVENT_STREAM_ERROR_CODES`, or,
 * for an HTTP error whose body was `{ error: { code, message } }`, the server's own code.
 */
export class EventStreamError extends CodedError<EventStreamErrorCode> {
  override name = 'EventStreamError';
}
