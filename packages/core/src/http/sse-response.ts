import { createSseEventEncoder, encodeSseComment, encodeSseVersion, sseHeaders } from '@lousho/protocol';
import { serializeError } from '@lousho/protocol';
import type { AgentStreamEvent } from '@lousho/protocol';
import type { EventFeed } from '@lousho/protocol';
import { coalesceDeltas } from './coalesce.js';
import { approximateEventSize } from './event-size.js';
import { slowReaderError } from './errors.js';

export interface SseResponseOptions {
  /** A comment frame after this long without events (0 or Infinity: never). */
  keepAliveMs: number;
  /**
   * Writes at most once per this many ms while events come faster: an event that finds the stream
   * quiet for this long goes out at once; one that comes sooner waits for the rest of the window and
   * goes out with what came meanwhile (0: each burst of events is its own write). See `sseChunks`.
   */
  writeWindowMs?: number;
  /** The request's signal: when the client goes away, stop reading the feed (the run goes on). */
  signal?: AbortSignal | undefined;
  /** The feed's producer failed (never expected): reported, and the stream ends with an `error` event. */
  onFailure?: (error: unknown) => void;
  /**
   * The server writes the chunks itself (`sseChunksOf`; the node adapter): the response gets no
   * web stream, which costs Node 20 about 17 µs to make, and its `body` is null.
   */
  chunksOnly?: boolean;
}

/**
 * About how many bytes one write carries at most: what a connection's stream takes from its feed at
 * a time, when its writer asks for the next chunk. No chunk waits in the stream, so what a connection
 * holds in encoded form stays near this (plus what its socket holds), however far behind its reader is.
 */
export const SSE_CHUNK_BYTES = 32 * 1024;

const KEEP_ALIVE = encodeSseComment('keep-alive');
const CHUNK = { maxBytes: SSE_CHUNK_BYTES, sizeOf: approximateEventSize };

/** Default `writeWindowMs`: well under what a person notices, and under a model's gap between tokens. */
export const DEFAULT_WRITE_WINDOW_MS = 4;

const runtime = (globalThis as { process?: { nextTick?: (fn: () => void) => void } }).process;
/**
 * Calls `fn` once the microtasks queued now have run: Node's next tick, asked for from a microtask,
 * comes after them. A run that emits without waiting for I/O (a model's buffered chunks, a tool's
 * burst of progress) does all of it in microtasks, so this is when its burst is over. In a runtime
 * without `process.nextTick`, a microtask: there, each write takes what was there.
 */
const afterQueuedMicrotasks: (fn: () => void) => void = runtime?.nextTick ? (fn) => runtime.nextTick!(fn) : queueMicrotask;

/**
 * An event stream's body as chunks to write, pulled one at a time: what `sseResponse`'s web stream
 * reads, and what `toNodeHandler` reads directly (without a web stream's promises and queue per
 * write, about a tenth of a paced stream's CPU: docs/benchmarks.md).
 */
export interface SseChunks {
  /**
   * The next chunk (the version frame first), as text: a Node writer encodes it as it copies it
   * out, cheaper than a `TextEncoder` per write. Undefined once the stream ended. Rejects with
   * `LOUSHO_SLOW_READER` once the feed overflowed.
   */
  next(): Promise<string | undefined>;
  /**
   * `next()` with callbacks instead of a promise: `done` gets the chunk (undefined at the end),
   * `failed` what `next()` rejects with, exactly once, possibly before this returns. For a writer
   * that takes a chunk per event (a stream at a model's pace): no promise per write.
   */
  nextThen(done: (chunk: string | undefined) => void, failed: (error: unknown) => void): void;
  /** Resolves with `LOUSHO_SLOW_READER` if the feed overflows (its reader fell too far behind): a writer waiting for `drain` stops waiting. Never resolves otherwise. */
  readonly failed: Promise<Error>;
  /** The reader went away: closes the feed (never the run). */
  cancel(): void;
}

/** Where `sseResponse` leaves its chunks for a server that writes them itself (read with `sseChunksOf`). */
const SSE_CHUNKS = Symbol('lousho.sseChunks');

/**
 * The chunks of an event stream `sseResponse` made, for a server that writes them itself; undefined
 * for any other response, or one whose body someone started reading (then its web stream is the body).
 * Taking them leaves the body unread: the caller writes the whole stream.
 */
export function sseChunksOf(response: Response): SseChunks | undefined {
  const chunks = (response as { [SSE_CHUNKS]?: SseChunks })[SSE_CHUNKS];
  if (!chunks || response.bodyUsed || response.body?.locked) return undefined;
  (response as { [SSE_CHUNKS]?: SseChunks })[SSE_CHUNKS] = undefined;
  return chunks;
}

/**
 * The chunks of an event stream fed by `feed`: the version frame, then each event as `id: seq` +
 * `data: json`, saying only what the stream did not say yet (`createSseEventEncoder`). Events are
 * taken and encoded only when the writer asks for the next chunk (in Node, once the socket took
 * the last), at most about `SSE_CHUNK_BYTES` at a time, so a reader that does not read leaves the
 * rest in the feed. The first event goes out at once (time to first token). After it, a write
 * waits for the burst it is part of to end (`afterQueuedMicrotasks`), and, when the last write was
 * less than `writeWindowMs` ago, for the rest of that window: a model streaming tokens tens of ms
 * apart gets each one written at once, one streaming faster gets a write per window, not per token
 * (a write costs the server more than the event in it: docs/benchmarks.md). Deltas of one part
 * that waited together are merged into one event (`coalesceDeltas`).
 */
function sseChunks(feed: EventFeed, options: SseResponseOptions): SseChunks {
  // One per stream: each event leaves out what the stream already said (protocol v2).
  const encodeEvent = createSseEventEncoder();
  /** The last event written. */
  let sent: AgentStreamEvent | undefined;
  let started = false;
  let ended = false;
  const windowMs = options.writeWindowMs ?? DEFAULT_WRITE_WINDOW_MS;
  /** When the last chunk of events was handed to the writer. */
  let lastWriteAt = -Infinity;
  // Asked for once events are there: the rest of the write window, else the end of the burst.
  // (A callback, not a promise: a paced stream asks for it on every event.)
  const settle = (settled: () => void): void => {
    const wait = lastWriteAt + windowMs - performance.now();
    if (wait > 0) setTimeout(settled, wait);
    else afterQueuedMicrotasks(settled);
  };
  let fail!: (error: Error) => void;
  const failed = new Promise<Error>((resolve) => (fail = resolve));
  feed.onClose(() => {
    if (feed.overflowed) fail(slowReaderError());
  });
  /** A batch taken from the feed as the chunk to write (null: the feed ended). */
  const chunkOf = (batch: AgentStreamEvent[] | null): string | undefined => {
    if (batch === null) {
      ended = true;
      if (feed.overflowed) throw slowReaderError();
      return undefined;
    }
    let text = '';
    if (batch.length === 0) text = KEEP_ALIVE;
    else for (const event of coalesceDeltas(batch)) text += encodeEvent((sent = event));
    lastWriteAt = performance.now();
    return text;
  };
  // The callbacks of the chunk being waited for (one at a time: a stream has one writer), and the
  // feed's callbacks made once per stream rather than once per chunk.
  let deliver: (chunk: string | undefined) => void = () => {};
  let refuse: (error: unknown) => void = () => {};
  const onBatch = (batch: AgentStreamEvent[] | null): void => {
    let chunk: string | undefined;
    try {
      chunk = chunkOf(batch);
    } catch (error) {
      refuse(error);
      return;
    }
    deliver(chunk);
  };
  const onFeedFailure = (error: unknown): void => {
    let chunk: string;
    try {
      options.onFailure?.(error);
      ended = true;
      // In the run (and session) of the stream's last event: a v2 stream's events all have
      // the context the stream last said (a reader would restore it anyway).
      const failure = { type: 'error', error: serializeError(error), runId: sent?.runId, sessionId: sent?.sessionId } as unknown as AgentStreamEvent;
      chunk = encodeEvent(failure);
    } catch (thrown) {
      refuse(thrown);
      return;
    }
    deliver(chunk);
  };
  const nextThen: SseChunks['nextThen'] = (done, failed) => {
    if (!started) {
      started = true;
      done(encodeSseVersion());
      return;
    }
    if (ended) {
      done(undefined);
      return;
    }
    deliver = done;
    refuse = failed;
    // After the first write (which goes out at once: time to first token), events that come
    // in a burst are written together: one write, and one merged delta, per burst rather
    // than per event (most of the server's work per event was its own write).
    feed.takeThen(onBatch, onFeedFailure, options.keepAliveMs, CHUNK, sent && settle);
  };
  return {
    failed,
    cancel: () => feed.close(),
    // One promise per chunk, settled from the feed's callbacks (no async frames in between).
    next: () => new Promise<string | undefined>((resolve, reject) => nextThen(resolve, reject)),
    nextThen,
  };
}

/**
 * An event stream response fed by `feed` (see `sseChunks`). Pull-based and unbuffered: the body
 * takes the next chunk when its reader asks for it, so what waited meanwhile goes out in one write.
 * When the feed overflows (its reader fell more than its `maxBufferedBytes` behind), the body
 * errors, which closes the connection; the client resumes from its last event. Cancelling the body
 * or aborting `signal` closes the feed, never the run.
 */
export function sseResponse(feed: EventFeed, options: SseResponseOptions): Response {
  const { signal } = options;
  const onAbort = (): void => feed.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  feed.onClose(() => signal?.removeEventListener('abort', onAbort));
  if (signal?.aborted) feed.close();

  const chunks = sseChunks(feed, options);
  const response = new Response(options.chunksOnly ? null : webStreamOf(chunks), { status: 200, headers: sseHeaders });
  (response as { [SSE_CHUNKS]?: SseChunks })[SSE_CHUNKS] = chunks;
  return response;
}

/** `chunks` as a web stream's body: one chunk taken (and encoded) per pull, nothing waiting in the stream. */
function webStreamOf(chunks: SseChunks): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        void chunks.failed.then((error) => safely(() => controller.error(error)));
      },
      async pull(controller) {
        let chunk: string | undefined;
        try {
          chunk = await chunks.next();
        } catch (error) {
          safely(() => controller.error(error));
          return;
        }
        safely(() => (chunk === undefined ? controller.close() : controller.enqueue(encoder.encode(chunk))));
      },
      cancel() {
        chunks.cancel();
      },
    },
    { highWaterMark: 0 },
  );
}

/** A controller call after the reader cancelled throws; that is not an error here. */
function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // The stream was cancelled meanwhile.
  }
}
