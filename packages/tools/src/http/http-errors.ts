import { ERROR_CODES, SDKError } from '@lousho/core';
import type { AddressClassification } from './address-classifier.js';

/** The `http` tool's codes by short name (each is in `ERROR_CODES` under its full name). */
export const HTTP_TOOL_ERROR_CODES = {
  /** The URL is not absolute, cannot be parsed, or carries credentials. */
  INVALID_URL: ERROR_CODES.LOUSHO_HTTP_INVALID_URL,
  /** The scheme is not http: or https:. */
  SCHEME_NOT_ALLOWED: ERROR_CODES.LOUSHO_HTTP_SCHEME_NOT_ALLOWED,
  /** The request cannot be sent as given (e.g. a body on a GET). */
  INVALID_REQUEST: ERROR_CODES.LOUSHO_HTTP_INVALID_REQUEST,
  /** A request header the tool sets itself (host, content-length, ...) was given. */
  HEADER_NOT_ALLOWED: ERROR_CODES.LOUSHO_HTTP_HEADER_NOT_ALLOWED,
  /** The SSRF guard refused the destination before connecting. */
  DESTINATION_REFUSED: ERROR_CODES.LOUSHO_HTTP_DESTINATION_REFUSED,
  /** The hostname could not be resolved. */
  DNS_FAILED: ERROR_CODES.LOUSHO_HTTP_DNS_FAILED,
  /** More redirects than `maxRedirects`. */
  TOO_MANY_REDIRECTS: ERROR_CODES.LOUSHO_HTTP_TOO_MANY_REDIRECTS,
  /** The request took longer than `timeoutMs`. */
  TIMEOUT: ERROR_CODES.LOUSHO_HTTP_TIMEOUT,
  /** Connecting, sending or reading failed. */
  REQUEST_FAILED: ERROR_CODES.LOUSHO_HTTP_REQUEST_FAILED,
  /** The runtime cannot run the chosen transport. */
  UNSUPPORTED_RUNTIME: ERROR_CODES.LOUSHO_HTTP_UNSUPPORTED_RUNTIME,
} as const;

/** The codes of the `http` tool's errors (`LOUSHO_HTTP_...`). */
export type HttpToolErrorCode = (typeof HTTP_TOOL_ERROR_CODES)[keyof typeof HTTP_TOOL_ERROR_CODES];

/**
 * A failed `http` tool call. Thrown from `execute`, so the model receives it as a tool error
 * result (`error` = the class name, `message` = the text) and can change its request.
 */
export class HttpToolError extends SDKError {
  declare readonly code: HttpToolErrorCode;

  constructor(code: HttpToolErrorCode, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(code, message, options);
    this.name = 'HttpToolError';
  }
}

/** The SSRF guard refused the destination; no connection was made. */
export class SsrfBlockedError extends HttpToolError {
  /** The host as given in the URL. */
  readonly hostname: string;
  /** The refused address and its range, when an address (not a name) was refused. */
  readonly classification: AddressClassification | undefined;

  constructor(message: string, hostname: string, classification?: AddressClassification, hint?: string) {
    super(HTTP_TOOL_ERROR_CODES.DESTINATION_REFUSED, message, hint ? { hint } : {});
    this.name = 'SsrfBlockedError';
    this.hostname = hostname;
    this.classification = classification;
  }
}
