import { ERROR_CODES, SDKError, serializeError, type SerializedError } from '@lousho/protocol';
import { CLIENT_ERROR_CODES } from '@lousho/protocol';
import { STORE_ERROR_CODES } from '@lousho/store-kit';

/** @deprecated Every code is in `ERROR_CODES`; use it. This table keeps the codes it always had, with the same values. */
export const HTTP_ERROR_CODES = {
  LOUSHO_UNAUTHORIZED: ERROR_CODES.LOUSHO_UNAUTHORIZED,
  LOUSHO_ROUTE_NOT_FOUND: ERROR_CODES.LOUSHO_ROUTE_NOT_FOUND,
  LOUSHO_METHOD_NOT_ALLOWED: ERROR_CODES.LOUSHO_METHOD_NOT_ALLOWED,
  LOUSHO_SESSION_NOT_FOUND: ERROR_CODES.LOUSHO_SESSION_NOT_FOUND,
  LOUSHO_BODY_TOO_LARGE: ERROR_CODES.LOUSHO_BODY_TOO_LARGE,
  LOUSHO_UNSUPPORTED_MEDIA_TYPE: ERROR_CODES.LOUSHO_UNSUPPORTED_MEDIA_TYPE,
  LOUSHO_STREAM_GAP: ERROR_CODES.LOUSHO_STREAM_GAP,
  LOUSHO_BODY_INCOMPLETE: ERROR_CODES.LOUSHO_BODY_INCOMPLETE,
  LOUSHO_SLOW_READER: ERROR_CODES.LOUSHO_SLOW_READER,
} as const;

/** The most characters of a client-chosen value (an id, a path) an error message repeats. */
export const MAX_ECHO_CHARS = 80;

/** A client-chosen value as an error message repeats it: cut to `MAX_ECHO_CHARS`, never mid-character. */
export function echo(value: string): string {
  if (value.length <= MAX_ECHO_CHARS) return value;
  let end = MAX_ECHO_CHARS;
  const code = value.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${value.slice(0, end)}…`;
}

/** The error a stream's body fails with when its reader fell too far behind (see `maxBufferedBytes`). */
export function slowReaderError(): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_SLOW_READER, 'The client fell too far behind this stream; the connection was closed (it resumes from its last event).');
}

/** True for the errors that end a connection as a normal event, never worth an `onError` report. */
export function isExpectedDisconnect(error: unknown): boolean {
  return SDKError.is(error) && error.code === ERROR_CODES.LOUSHO_SLOW_READER;
}

/** An error answered as `{ error: { code, message } }` with `status`. */
export class HttpError extends SDKError {
  readonly status: number;
  readonly headers: Record<string, string> | undefined;
  constructor(status: number, code: string, message: string, headers?: Record<string, string>) {
    super(code, message);
    this.name = 'HttpError';
    this.status = status;
    this.headers = headers;
  }
}

const STATUS_OF_CODE: Record<string, number> = {
  [ERROR_CODES.LOUSHO_SESSION_BUSY]: 409,
  [ERROR_CODES.LOUSHO_SESSION_AWAITING_APPROVAL]: 409,
  [ERROR_CODES.LOUSHO_APPROVAL_NOT_PENDING]: 409,
  [ERROR_CODES.LOUSHO_APPROVAL_NOT_FOUND]: 404,
  [ERROR_CODES.LOUSHO_APPROVAL_KIND_MISMATCH]: 400,
  [ERROR_CODES.LOUSHO_INVALID_TOOL_OUTPUT]: 422,
  [ERROR_CODES.LOUSHO_INVALID_INPUT]: 400,
  [CLIENT_ERROR_CODES.LOUSHO_STREAM_GAP]: 409,
  [STORE_ERROR_CODES.LOUSHO_SESSION_NOT_RESUMABLE]: 409,
  [ERROR_CODES.LOUSHO_SESSION_NOT_FOUND]: 404,
  [ERROR_CODES.LOUSHO_QUEUED_MESSAGE_NOT_FOUND]: 404,
  [ERROR_CODES.LOUSHO_QUEUE_UNSUPPORTED]: 501,
  [ERROR_CODES.LOUSHO_SESSION_CURSOR_INVALID]: 400,
  [ERROR_CODES.LOUSHO_SESSION_LIMIT_INVALID]: 400,
  [ERROR_CODES.LOUSHO_SESSION_TITLE_INVALID]: 400,
  [ERROR_CODES.LOUSHO_SESSION_LIST_UNSUPPORTED]: 501,
  [ERROR_CODES.LOUSHO_FILE_TOO_LARGE]: 413,
  [ERROR_CODES.LOUSHO_BODY_INCOMPLETE]: 400,
  [ERROR_CODES.LOUSHO_FILE_TYPE_REFUSED]: 415,
  [ERROR_CODES.LOUSHO_FILE_NOT_FOUND]: 404,
  [ERROR_CODES.LOUSHO_FILES_UNSUPPORTED]: 501,
};

/**
 * What a thrown error becomes on the wire. Errors with a known status keep their code and
 * message; anything else is a 500 whose message says nothing about the internals.
 */
export function toHttpError(error: unknown): { status: number; body: SerializedError; headers?: Record<string, string>; unexpected: boolean } {
  if (error instanceof HttpError) {
    return { status: error.status, body: { code: error.code, message: error.message }, ...(error.headers ? { headers: error.headers } : {}), unexpected: false };
  }
  if (SDKError.is(error)) {
    if (error.code === STORE_ERROR_CODES.LOUSHO_STORE_UNAVAILABLE) {
      // An outage, not a refusal: reported (the operator needs to know), answered without the store's
      // details (its message names the database), and worth retrying.
      return {
        status: 503,
        body: { code: error.code, message: "The agent's store cannot be reached right now; try again shortly." },
        headers: { 'retry-after': '2' },
        unexpected: true,
      };
    }
    const status = STATUS_OF_CODE[error.code];
    if (status !== undefined) return { status, body: serializeError(error), unexpected: false };
  }
  return {
    status: 500,
    body: { code: ERROR_CODES.LOUSHO_INTERNAL, message: 'The agent server failed to handle the request. The details are in the server log.' },
    unexpected: true,
  };
}
