import { SDKError } from '../errors.js';

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

/** One of `EVENT_STREAM_ERROR_CODES`: what went wrong reading a stream (a server's own code may also come). */
export type EventStreamErrorCode = (typeof EVENT_STREAM_ERROR_CODES)[keyof typeof EVENT_STREAM_ERROR_CODES];

/** The optional facts a `CodedError` carries besides its code and message. */
export interface CodedErrorOptions {
  /** The HTTP status, for errors about a response. */
  status?: number;
  /** The SSE `id` of the offending event, for errors about one. */
  eventId?: string;
  /** The error underneath (a failed `fetch`, a `JSON.parse` error); becomes the standard `error.cause`. */
  cause?: unknown;
}

/**
 * The base of the errors a browser client can see (`EventStreamError`, `AgentClientError`): an
 * `SDKError` (a stable `code`, a one-line message, the `docs` link of its code, an empty `hint`:
 * what each code means and how to fix it is under the code, docs/protocol.md, "Client error
 * codes") with the HTTP `status` or the offending event's `eventId` when there is one. `Code` only
 * types the constructor's `code` (the known codes autocomplete; any string goes).
 */
export type CodedError<Code extends string = string> = SDKError & {
  readonly code: Code | (string & {});
  /** The HTTP status, when the problem is a response. */
  readonly status?: number;
  /** The SSE `id` of the offending event (its sequence number), when it had one. */
  readonly eventId?: string;
};
/** `SDKError`, typed with the client's options: a class of its own would only cost every page bytes. */
export const CodedError = SDKError as {
  /** An error with `code` and a one-line `message`; `status`, `eventId` and `cause` from `options` when given. */
  new <Code extends string = string>(code: Code | (string & {}), message: string, options?: CodedErrorOptions): CodedError<Code>;
};

/** The options of an `EventStreamError` (the same as any `CodedError`'s). */
export type EventStreamErrorOptions = CodedErrorOptions;

/**
 * A stream that cannot be read as agent events. `code` is one of `EVENT_STREAM_ERROR_CODES`, or,
 * for an HTTP error whose body was `{ error: { code, message } }`, the server's own code.
 */
export class EventStreamError extends CodedError<EventStreamErrorCode> {
  override name = 'EventStreamError';
}
