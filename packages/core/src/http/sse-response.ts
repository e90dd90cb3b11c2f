import { createSseEventEncoder, encodeSseComment, encodeSseVersion, sseHeaders } from '../protocol/index.js';
import { serializeError } from '../errors.js';
import type { AgentStreamEvent } from '../events/types.js';
import type { EventFeed } from '../client/event-feed.js';
import { coalesceDeltas } from './coalesce.js';
import { approximateEventSize } from './event-size.js';
import { slowReaderError } from './errors.js';

export interface SseResponseOptions {
  /** A comment frame after this long without events (0 or Infinity: never). */
  keepAliveMs: number;
  /** The request's signal: when the client goes away, stop reading the feed (the run goes on). */
  signal?: AbortSignal | undefined;
  /** The feed's producer failed (never expected): reported, and the stream ends with an `error` event. */
  onFailure?: (error: unknown) => void;
}

/**
 * About how many bytes one write carries at most: what a connection's stream takes from its feed at
 * a time. The stream holds one such chunk until its reader takes it, so what a connection holds in
 * encoded form stays near twice this, however far behind its reader is.
 */
export const SSE_CHUNK_BYTES = 32 * 1024;

const KEEP_ALIVE = encodeSseComment('keep-alive');
const CHUNK = { maxBytes: SSE_CHUNK_BYTES, sizeOf: approximateEventSize };

const runtime = (globalThis as { process?: { nextTick?: (fn: () => void) => void } }).process;
/**
 * Resolves once the microtasks queued now have run: Node's next tick, asked for from a microtask,
 * comes after them. A run that emits without waiting for I/O (a model's buffered chunks, a tool's
 * burst of progress) does all of it in microtasks, so this is when its burst is over. Undefined in a
 * runtime without `process.nextTick`: there, each write takes what was there.
 */
const afterQueuedMicrotasks: (() => Promise<void>) | undefined = runtime?.nextTick && (() => new Promise<void>((resolve) => runtime.nextTick!(resolve)));

/**
 * An event stream response fed by `feed`: the version frame, then each event as `id: seq` +
 * `data: json`, saying only what the stream did not say yet (`createSseEventEncoder`). Pull-based, one chunk deep: events are taken and encoded only when the stream's
 * reader wants more (its desired size; in Node, the socket's `drain`), at most about
 * `SSE_CHUNK_BYTES` at a time, so a reader that does not read leaves the rest in the feed. After
 * the first write, a write waits for the burst it is part of to end (`afterQueuedMicrotasks`), never
 * for I/O or a timer. Deltas of one part that waited together are merged into one event
 * (`coalesceDeltas`). When the feed
 * overflows (its reader fell more than its `maxBufferedBytes` behind), the stream errors, which
 * closes the connection; the client resumes from its last event. Cancelling the body or aborting
 * `signal` closes the feed, never the run.
 */
export function sseResponse(feed: EventFeed, options: SseResponseOptions): Response {
  const encoder = new TextEncoder();
  // One per stream: each event leaves out what the stream already said (protocol v2).
  const encodeEvent = createSseEventEncoder();
  /** The last event written. */
  let sent: AgentStreamEvent | undefined;
  const { signal } = options;
  const onAbort = (): void => feed.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  feed.onClose(() => signal?.removeEventListener('abort', onAbort));
  if (signal?.aborted) feed.close();

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(encodeSseVersion()));
        feed.onClose(() => {
          if (feed.overflowed) safely(() => controller.error(slowReaderError()));
        });
      },
      async pull(controller) {
        let batch: AgentStreamEvent[] | null;
        try {
          // After the first write (which goes out at once: time to first token), events that come
          // in a burst are written together: one write, and one merged delta, per burst rather
          // than per event (most of the server's work per event was its own write).
          batch = await feed.take(options.keepAliveMs, CHUNK, sent && afterQueuedMicrotasks);
        } catch (error) {
          options.onFailure?.(error);
          // In the run (and session) of the stream's last event: a v2 stream's events all have
          // the context the stream last said (a reader would restore it anyway).
          const failure = { type: 'error', error: serializeError(error), runId: sent?.runId, sessionId: sent?.sessionId } as unknown as AgentStreamEvent;
          safely(() => controller.enqueue(encoder.encode(encodeEvent(failure))));
          safely(() => controller.close());
          return;
        }
        if (batch === null) {
          // An overflow already errored the stream.
          if (!feed.overflowed) safely(() => controller.close());
          return;
        }
        let text = '';
        if (batch.length === 0) text = KEEP_ALIVE;
        else for (const event of coalesceDeltas(batch)) text += encodeEvent((sent = event));
        safely(() => controller.enqueue(encoder.encode(text)));
      },
      cancel() {
        feed.close();
      },
    },
    // One chunk at most waits in the stream: the next is taken (and encoded) when the reader took
    // this one, so what waited meanwhile goes out in one write.
    { highWaterMark: 1 },
  );
  return new Response(stream, { status: 200, headers: sseHeaders });
}

/** A controller call after the reader cancelled throws; that is not an error here. */
function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // The stream was cancelled meanwhile.
  }
}
