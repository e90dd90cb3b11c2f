/**
 * The errors a network-backed provider raises. Each one names the provider, carries a stable
 * `code`, says how to fix the problem, and tells `withRetry()` / `withFallback()` whether trying
 * again could help (`retryable`). Messages are scrubbed of the provider's secrets before they are
 * built, so an API key never reaches a log, a model or a browser.
 */
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { ProviderStreamError } from './errors.js';

/** What every network provider error tells callers. */
export interface ProviderFailureInfo {
  /** The provider's name, e.g. `openai`. */
  readonly provider: string;
  /** True when the same request may succeed later (rate limits, server errors, lost connections). */
  readonly retryable: boolean;
}

export interface ProviderHttpErrorInit {
  provider: string;
  /** Human name used in the message, e.g. `OpenAI`. */
  label: string;
  status: number;
  /** The error message the API put in its body (already scrubbed), if any. */
  apiMessage?: string;
  /** The API's own error code or type, e.g. `invalid_api_key` (OpenAI) or `rate_limit_error` (Anthropic). */
  apiErrorType?: string;
  retryAfterMs?: number;
  /** Which variable or option holds the credentials, for the 401/403 hint. */
  credentialsHint?: string;
}

/** A provider answered with a non-2xx HTTP status. */
export class ProviderHttpError extends SDKError implements ProviderFailureInfo {
  declare readonly code: typeof ERROR_CODES.LOUSHO_PROVIDER_HTTP_ERROR;
  readonly provider: string;
  readonly status: number;
  /** The API's error message (scrubbed of secrets), or undefined when the body had none. */
  readonly apiMessage: string | undefined;
  readonly apiErrorType: string | undefined;
  /** 429 and 5xx: true. Any other status: false. */
  readonly retryable: boolean;
  /** How long the provider asked us to wait (from `retry-after-ms` / `Retry-After`), in ms. */
  readonly retryAfterMs: number | undefined;

  constructor(init: ProviderHttpErrorInit) {
    const hint = httpHint(init);
    const detail = init.apiMessage ? `: ${init.apiMessage}${/[.!?…]$/.test(init.apiMessage) ? '' : '.'}` : '.';
    const reason = STATUS_TEXT[init.status];
    super(ERROR_CODES.LOUSHO_PROVIDER_HTTP_ERROR, `${init.label} request failed with HTTP ${init.status}${reason ? ` ${reason}` : ''}${detail} ${hint}`, { hint });
    this.name = 'ProviderHttpError';
    this.provider = init.provider;
    this.status = init.status;
    this.apiMessage = init.apiMessage;
    this.apiErrorType = init.apiErrorType;
    this.retryable = isRetryableStatus(init.status);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** The request never got an HTTP answer: DNS failure, refused or reset connection, TLS error. */
export class ProviderConnectionError extends SDKError implements ProviderFailureInfo {
  declare readonly code: typeof ERROR_CODES.LOUSHO_PROVIDER_ERROR;
  readonly provider: string;
  readonly retryable = true;

  constructor(provider: string, message: string, hint: string) {
    super(ERROR_CODES.LOUSHO_PROVIDER_ERROR, `${message} ${hint}`, { hint });
    this.name = 'ProviderConnectionError';
    this.provider = provider;
  }
}

/**
 * The provider's response stream went wrong: it was cut short, a chunk was not what the API
 * documents, or the API reported an error in the middle of the stream. A `ProviderStreamError`
 * (so existing checks keep working) that also names the provider and says whether a retry can help.
 */
export class ProviderResponseError extends ProviderStreamError implements ProviderFailureInfo {
  readonly provider: string;
  readonly retryable: boolean;
  readonly apiErrorType: string | undefined;

  constructor(init: { provider: string; message: string; hint: string; retryable: boolean; apiErrorType?: string }) {
    super(`${init.message} ${init.hint}`, init.hint);
    this.provider = init.provider;
    this.retryable = init.retryable;
    this.apiErrorType = init.apiErrorType;
  }
}

/** 429 (rate limited) and every 5xx (including Anthropic's 529 "overloaded"). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

const REDACTED = '[redacted]';
// Shapes of common provider keys, scrubbed even when they are not the key we sent
// (e.g. a proxy echoing another key). The masked forms APIs print ("sk-...abcd") do not match.
const KEY_LIKE = /\b(?:sk|rk|pk)-[A-Za-z0-9_-]{16,}/g;

/**
 * Removes every secret (and anything shaped like an API key) from `text`. Secrets shorter than
 * 4 characters are ignored: scrubbing them would mangle ordinary words.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    // A secret that is part of the marker itself would survive it; mask such a one with stars.
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED.includes(secret) ? '***' : REDACTED);
  }
  return out.replace(KEY_LIKE, REDACTED);
}

/**
 * How long to wait before retrying, from the response headers: OpenAI's `retry-after-ms`, then the
 * standard `Retry-After` (seconds or an HTTP date). Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: Pick<Headers, 'get'>, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const header = headers.get('retry-after');
  if (header === null || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Longest API message kept in an error; bodies can be whole HTML pages from proxies. */
const MAX_API_MESSAGE = 500;

/**
 * Builds the ProviderHttpError for a non-2xx response, reading the API's error message from the
 * body (the OpenAI, Anthropic, OpenRouter and Ollama shapes) and scrubbing `secrets` from it.
 */
export async function httpErrorFromResponse(
  response: Response,
  init: { provider: string; label: string; secrets: readonly (string | undefined)[]; credentialsHint?: string },
): Promise<ProviderHttpError> {
  let body = '';
  try {
    body = await response.text();
  } catch {
    // A body we cannot read still leaves the status, which is what matters most.
  }
  const { message, type } = readApiError(body);
  const apiMessage = message ? clip(redactSecrets(oneLine(message), init.secrets)) : undefined;
  const retryAfterMs = parseRetryAfter(response.headers);
  return new ProviderHttpError({
    provider: init.provider,
    label: init.label,
    status: response.status,
    ...(apiMessage ? { apiMessage } : {}),
    ...(type ? { apiErrorType: redactSecrets(type, init.secrets) } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(init.credentialsHint ? { credentialsHint: init.credentialsHint } : {}),
  });
}

/** The message and type out of an API error body; falls back to the raw text when it is not JSON. */
export function readApiError(body: string): { message?: string; type?: string } {
  const text = body.trim();
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Plain text or HTML from a proxy: keep the text, without markup.
    return { message: text.replace(/<[^>]*>/g, ' ') };
  }
  if (typeof parsed !== 'object' || parsed === null) return { message: text };
  const root = parsed as Record<string, unknown>;
  const error = root.error;
  if (typeof error === 'string') return { message: error };
  if (typeof error === 'object' && error !== null) {
    const e = error as Record<string, unknown>;
    const message = typeof e.message === 'string' ? e.message : undefined;
    // OpenAI's `code` (invalid_api_key, model_not_found) is more precise than its `type`; Anthropic has only `type`.
    const type = typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined;
    return { ...(message ? { message } : {}), ...(type ? { type } : {}) };
  }
  if (typeof root.message === 'string') return { message: root.message };
  if (typeof root.detail === 'string') return { message: root.detail };
  return { message: text };
}

function httpHint(init: ProviderHttpErrorInit): string {
  const { status, label } = init;
  if (status === 401 || status === 403) {
    return `Check the API key${init.credentialsHint ? ` (${init.credentialsHint})` : ''}: it is missing, wrong or lacks access.`;
  }
  if (status === 404) return `Check the model id and the base URL: ${label} does not know this model or route.`;
  if (status === 413) return 'The request is too large: send fewer or smaller messages or attachments.';
  if (status === 429) return 'You are rate limited or out of quota: wait and retry (withRetry() does this), or check your plan.';
  if (status >= 500) return `${label} had a server-side problem: retry later (withRetry()) or add another provider with withFallback().`;
  return 'The request was rejected: check the model id, the messages and the options sent.';
}

function clip(text: string): string {
  return text.length > MAX_API_MESSAGE ? `${text.slice(0, MAX_API_MESSAGE)}…` : text;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** HTTP/2 responses carry no reason phrase, so the common ones are spelled out here. */
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  529: 'Overloaded',
};
