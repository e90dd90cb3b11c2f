import { ERROR_CODES, SDKError } from '@lousho/core';

/** @deprecated Every code is in `ERROR_CODES`; use it. This table keeps the codes it always had, with the same values. */
export const INTEGRATION_ERROR_CODES = {
  LOUSHO_INTEGRATION_ERROR: ERROR_CODES.LOUSHO_INTEGRATION_ERROR,
  LOUSHO_INTEGRATION_RATE_LIMITED: ERROR_CODES.LOUSHO_INTEGRATION_RATE_LIMITED,
} as const;

/** A failed call to an integrated service: its name, the HTTP status and the service's own message, never a credential. */
export class IntegrationError extends SDKError {
  readonly service: string;
  readonly status: number | undefined;
  constructor(code: keyof typeof INTEGRATION_ERROR_CODES, service: string, message: string, options: { status?: number; hint: string; cause?: unknown }) {
    super(code, message, { hint: options.hint, ...(options.cause !== undefined ? { cause: options.cause } : {}) });
    this.name = 'IntegrationError';
    this.service = service;
    this.status = options.status;
  }
}

/** The `fetch` the integration tools call (the global one by default); pass your own to add a proxy or to test. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** How a service says "slow down", and how long to wait. */
export interface RetryPolicy {
  /** Retries of a rate-limited request before giving up (default 3). */
  maxRetries?: number;
  /** Longest wait honoured from a `Retry-After` (default 60 s); a longer one fails at once. */
  maxWaitMs?: number;
}

export interface RestClientOptions {
  service: string;
  baseUrl: string;
  headers: Record<string, string>;
  fetch?: FetchLike;
  retry?: RetryPolicy;
  /** Values that must never appear in an error message (tokens, passwords). */
  secrets: readonly string[];
  /** The service's own error text from a failed response's JSON body. */
  errorText?: (body: unknown) => string | undefined;
  /** Whether a response is a rate limit (default: status 429). */
  isRateLimited?: (response: Response) => boolean;
  /** How long a rate-limited response asks to wait, when the service says it another way than `Retry-After`. */
  waitMs?: (response: Response) => number | undefined;
}

export interface RestResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A small JSON-over-HTTP client with the behaviour every integration needs: the service's
 * `Retry-After` honoured on rate limits (seconds or an HTTP date, capped), the run's abort signal
 * passed on, and failures turned into `IntegrationError`s that carry the service's message and
 * never a credential.
 */
export class RestClient {
  readonly #options: RestClientOptions;

  constructor(options: RestClientOptions) {
    this.#options = options;
  }

  async request<T = unknown>(method: string, path: string, init: { body?: unknown; query?: Record<string, string | number | undefined>; signal?: AbortSignal | undefined } = {}): Promise<RestResponse<T>> {
    const { service } = this.#options;
    const url = path.startsWith('http://') || path.startsWith('https://') ? new URL(path) : new URL(path.replace(/^\//, ''), this.#options.baseUrl.replace(/\/*$/, '/'));
    for (const [key, value] of Object.entries(init.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { accept: 'application/json', ...this.#options.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json; charset=utf-8';
    const fetchFn = this.#options.fetch ?? ((input, request) => globalThis.fetch(input, request));
    const maxRetries = this.#options.retry?.maxRetries ?? 3;
    const maxWaitMs = this.#options.retry?.maxWaitMs ?? 60_000;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetchFn(url.toString(), {
          method,
          headers,
          ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
          ...(init.signal ? { signal: init.signal } : {}),
        });
      } catch (error) {
        if (init.signal?.aborted) throw error;
        throw new IntegrationError('LOUSHO_INTEGRATION_ERROR', service, this.#redact(`Could not reach ${service} (${error instanceof Error ? error.message : String(error)}).`), {
          hint: `Check the network and the ${service} base URL.`,
          cause: error,
        });
      }
      const limited = (this.#options.isRateLimited ?? ((r) => r.status === 429))(response);
      if (limited) {
        const wait = retryAfterMs(response.headers) ?? this.#options.waitMs?.(response) ?? Math.min(1000 * 2 ** attempt, maxWaitMs);
        await response.body?.cancel().catch(() => {});
        if (attempt >= maxRetries || wait > maxWaitMs) {
          throw new IntegrationError('LOUSHO_INTEGRATION_RATE_LIMITED', service, `${service} rate-limited the request (HTTP ${response.status}); it asked to wait ${Math.ceil(wait / 1000)} s.`, {
            status: response.status,
            hint: 'Try again later, or make fewer calls.',
          });
        }
        await sleep(wait, init.signal);
        continue;
      }
      const text = await response.text();
      const body = parseJson(text);
      if (!response.ok) {
        const detail = this.#options.errorText?.(body) ?? (text.length > 0 && body === undefined ? text.slice(0, 300) : undefined);
        throw new IntegrationError('LOUSHO_INTEGRATION_ERROR', service, this.#redact(`${service} answered HTTP ${response.status} to ${method} ${url.pathname}${detail ? `: ${detail}` : '.'}`), {
          status: response.status,
          hint: response.status === 401 || response.status === 403 ? `Check the ${service} credentials and their permissions.` : 'Check the arguments of the call.',
        });
      }
      return { status: response.status, headers: response.headers, body: body as T };
    }
  }

  #redact(text: string): string {
    let out = text;
    for (const secret of this.#options.secrets) if (secret) out = out.split(secret).join('[redacted]');
    return out;
  }
}

/** `Retry-After` in ms: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A required option, checked when the tools are created (a missing token fails at startup, not at the first call). */
export function requireOption(service: string, factory: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new SDKError('LOUSHO_INVALID_CONFIG', `${factory}: the ${service} ${name} is missing.`, { hint: `Pass { ${name} } (e.g. from an environment variable).` });
  }
  return value;
}
