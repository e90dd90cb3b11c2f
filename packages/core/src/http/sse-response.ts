import type { AgentStreamEvent } from '../events/types.js';
import { encodeSseComment, encodeSseEvent, encodeSseVersion, sseHeaders } from '../protocol/index.js';
import { serializeError } from '../errors.js';
import type { EventFeed } from '../client/event-feed.js';

export interface SseResponseOptions {
  /** A comment frame after this long without events (0 or Infinity: never). */
  keepAliveMs: number;
  /** The request's signal: when the client goes away, stop reading the feed (the run goes on). */
  signal?: AbortSignal | undefined;
  /** The feed's producer failed (never expected): reported, and the stream ends with an `error` event. */
  onFailure?: (error: unknown) => void;
}

const KEEP_ALIVE = encodeSseComment('keep-alive');

/**
 * An event stream response fed by `feed`: the version frame, then each event as `id: seq` +
 * `data: json`, batched when the reader is slower than the run. Pull-based, so a reader that does
 * not read gets nothing queued beyond one chunk (the rest waits in the feed). Cancelling the body
 * or aborting `signal` closes the feed, never the run.
 */
export function sseResponse(feed: EventFeed, options: SseResponseOptions): Response {
  const encoder = new TextEncoder();
  const { signal } = options;
  const onAbort = (): void => feed.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  feed.onClose(() => signal?.removeEventListener('abort', onAbort));
  if (signal?.aborted) feed.close();

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(encodeSseVersion()));
    },
    async pull(controller) {
      let batch: AgentStreamEvent[] | null;
      try {
        batch = await feed.take(options.keepAliveMs);
      } catch (error) {
        options.onFailure?.(error);
        const last = { type: 'error', error: serializeError(error) } as unknown as AgentStreamEvent;
        safely(() => controller.enqueue(encoder.encode(encodeSseEvent(last))));
        safely(() => controller.close());
        return;
      }
      if (batch === null) {
        safely(() => controller.close());
        return;
      }
      let text = '';
      if (batch.length === 0) text = KEEP_ALIVE;
      else for (const event of batch) text += encodeSseEvent(event);
      safely(() => controller.enqueue(encoder.encode(text)));
    },
    cancel() {
      feed.close();
    },
  });
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
