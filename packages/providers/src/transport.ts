/**
 * The HTTP side of the network providers: one POST with `fetch`, turned into the provider errors
 * of http-error.ts, and an abortable read of the response body. Web APIs only, so the providers
 * run the same in Node 18+, browsers, Deno, Bun and edge workers.
 */
import { describeThrown } from '@lousho/protocol';
import { abortError, isAbortError, throwIfAborted } from './abort.js';
import { httpErrorFromResponse, ProviderConnectionError, ProviderResponseError, readApiError, redactSecrets } from './http-error.js';

/** The `fetch` a provider uses; inject one to add a proxy, logging or a test double. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Who is talking, for error messages, and what must never appear in them. */
export interface ProviderIdentity {
  /** e.g. `openai`. */
  provider: string;
  /** e.g. `OpenAI`. */
  label: string;
  /** Values scrubbed from every message (the API key). */
  secrets: readonly (string | undefined)[];
  /** Where the key comes from, for the 401 hint (e.g. `OPENAI_API_KEY`). */
  credentialsHint?: string;
}

/**
 * POSTs `body` as JSON and returns the response once its status is 2xx. Throws an AbortError when
 * `signal` aborts (even if the injected fetch ignores it), a ProviderConnectionError when no answer
 * came, and a ProviderHttpError for any other status.
 */
export async function postJson(
  who: ProviderIdentity,
  fetchFn: FetchFunction,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal | undefined,
): Promise<Response> {
  throwIfAborted(signal);
  let response: Response;
  try {
    response = await abortable(
      fetchFn(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      }),
      signal,
    );
  } catch (err) {
    if (signal?.aborted) throw abortError(signal.reason);
    if (isAbortError(err)) throw err;
    throw new ProviderConnectionError(
      who.provider,
      `Could not reach ${who.label} at ${originOf(url)}: ${redactSecrets(describeCause(err), who.secrets)}.`,
      'Check the network connection and the base URL, then try again.',
    );
  }
  if (!response.ok) {
    throw await httpErrorFromResponse(response, {
      provider: who.provider,
      label: who.label,
      secrets: who.secrets,
      ...(who.credentialsHint ? { credentialsHint: who.credentialsHint } : {}),
    });
  }
  if (/application\/json/i.test(response.headers.get('content-type') ?? '')) {
    // A 2xx JSON body where a stream was asked for: a gateway that ignores `stream`, or an error in disguise.
    const { message } = readApiError(await response.text().catch(() => ''));
    throw new ProviderResponseError({
      provider: who.provider,
      message: redactSecrets(`${who.label} answered with JSON instead of an event stream${message ? `: ${message.slice(0, 300)}` : ''}.`, who.secrets),
      hint: 'Check that the base URL points at an API that supports streaming responses.',
      retryable: false,
    });
  }
  if (!response.body) {
    throw new ProviderResponseError({
      provider: who.provider,
      message: `${who.label} answered HTTP ${response.status} without a response body.`,
      hint: 'The endpoint does not stream: check the base URL points at the API itself.',
      retryable: false,
    });
  }
  return response;
}

/**
 * Settles like `promise`, or rejects with an AbortError as soon as `signal` aborts. Providers use
 * it around every network wait so a stop is prompt even with a fetch that ignores the signal.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(abortError(signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(abortError(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** `scheme://host:port` of a URL: enough to say where we tried, never a path or query with secrets. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the configured base URL';
  }
}

/** Node's fetch says only "fetch failed"; the useful part (ECONNREFUSED, ENOTFOUND) is in `cause`. */
function describeCause(err: unknown): string {
  const { message } = describeThrown(err);
  const cause = (err as { cause?: unknown } | null)?.cause;
  if (cause && typeof cause === 'object') {
    const code = (cause as { code?: unknown }).code;
    const causeMessage = describeThrown(cause).message;
    const detail = typeof code === 'string' && !causeMessage.includes(code) ? `${code} ${causeMessage}` : causeMessage;
    if (detail) return `${message || 'request failed'} (${detail})`;
  }
  return message || 'request failed';
}
