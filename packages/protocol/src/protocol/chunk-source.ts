import { EventStreamError } from './errors.js';

/** What `parseEventStream` reads: a fetch `Response`, its body, or any async iterable of bytes. */
export type EventStreamSource = Response | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

const ERROR_BODY_LIMIT = 64 * 1024;

/** A byte source read chunk by chunk (the caller checks the signal after each read). */
export interface ChunkSource {
  read(): Promise<{ done?: boolean | undefined; value?: unknown }>;
  /** Releases the source; `finished` is false when reading stopped early (cancel the producer). */
  close(finished: boolean): Promise<void>;
}

export function isResponse(value: EventStreamSource): value is Response {
  return typeof (value as Response).status === 'number' && typeof (value as Response).headers === 'object' && 'body' in value;
}

export function isReadableStream(value: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): value is ReadableStream<Uint8Array> {
  return typeof (value as ReadableStream<Uint8Array>).getReader === 'function';
}

/** Checks a response is a readable event stream; turns error responses into `EventStreamError`s. */
export async function responseBody(response: Response): Promise<ReadableStream<Uint8Array> | null> {
  if (!response.ok) throw await httpError(response);
  const type = response.headers.get('content-type') ?? '';
  if (!/^\s*text\/event-stream\s*(;|$)/i.test(type)) {
    await response.body?.cancel().catch(() => {});
    throw new EventStreamError('LOUSHO_STREAM_NOT_SSE', `Expected a text/event-stream response, got "${type}".`, { status: response.status });
  }
  if (response.bodyUsed || response.body?.locked) {
    throw new EventStreamError('LOUSHO_STREAM_BODY_UNAVAILABLE', 'The response body was already read.', { status: response.status });
  }
  return response.body;
}

async function httpError(response: Response): Promise<EventStreamError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // An unreadable error body: the status alone has to do.
  }
  const payload = text.length <= ERROR_BODY_LIMIT ? safeJson(text) : undefined;
  const error = (payload as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new EventStreamError(error.code, error.message, { status: response.status });
  }
  return new EventStreamError('LOUSHO_STREAM_HTTP_ERROR', `Event stream request failed: HTTP ${response.status} ${response.statusText}`.trim(), { status: response.status });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('Aborted', 'AbortError');
}

/** A ReadableStream's chunks; an abort cancels the reader, which also ends a pending read. */
export function readerSource(stream: ReadableStream<Uint8Array>, signal: AbortSignal | undefined): ChunkSource {
  const reader = stream.getReader();
  const onAbort = (): void => {
    reader.cancel(abortReason(signal!)).catch(() => {});
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    read: () => reader.read(),
    async close(finished) {
      signal?.removeEventListener('abort', onAbort);
      // Stopped early (error, break): tell the producer nobody reads any more. An abort already did.
      if (!finished && !signal?.aborted) await reader.cancel().catch(() => {});
      reader.releaseLock();
    },
  };
}

/** An async iterable's chunks; an abort stops waiting at once, without waiting on the source. */
export function iterableSource(source: AsyncIterable<Uint8Array>, signal: AbortSignal | undefined): ChunkSource {
  const iterator = source[Symbol.asyncIterator]();
  let aborted: Promise<never> | undefined;
  let onAbort: (() => void) | undefined;
  if (signal) {
    aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortReason(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => {});
  }
  return {
    read: aborted ? () => Promise.race([iterator.next(), aborted]) : () => iterator.next(),
    async close(finished) {
      if (onAbort) signal!.removeEventListener('abort', onAbort);
      if (finished || !iterator.return) return;
      // After an abort the source may still be busy with a `next()`: do not wait for it.
      const closing = Promise.resolve()
        .then(() => iterator.return!())
        .catch(() => {});
      if (!signal?.aborted) await closing;
    },
  };
}

/** Opens any accepted source for reading (checking a `Response` first); null for a body-less response. */
export async function openChunkSource(source: EventStreamSource, signal: AbortSignal | undefined): Promise<ChunkSource | null> {
  const body = isResponse(source) ? await responseBody(source) : source;
  if (body === null) return null;
  return isReadableStream(body) ? readerSource(body, signal) : iterableSource(body, signal);
}
