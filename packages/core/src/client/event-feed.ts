import type { AgentStreamEvent } from '../events/types.js';

/** True for the events that end a run leg: `run.done` (finished or paused) and `error`. */
export function isLegEnd(event: AgentStreamEvent): boolean {
  return event.type === 'run.done' || event.type === 'error';
}

/**
 * A one-consumer buffer between a producer that never waits (an agent's session emits events
 * synchronously) and a reader that pulls at its own pace (an HTTP response body, a client).
 * `take()` hands over everything buffered at once, so a slow reader gets events in batches.
 */
export class EventFeed implements AsyncIterable<AgentStreamEvent> {
  #buffer: AgentStreamEvent[] = [];
  #ended = false;
  #failure: { error: unknown } | undefined;
  #closed = false;
  #wake: (() => void) | undefined;
  readonly #onClose: (() => void)[] = [];

  /** True once the reader went away (`close()`): producers should stop. */
  get closed(): boolean {
    return this.#closed;
  }

  push(event: AgentStreamEvent): void {
    if (this.#closed || this.#ended) return;
    this.#buffer.push(event);
    this.#signal();
  }

  /** No more events will come. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#signal();
    this.#cleanup();
  }

  /** The producer failed: the reader gets the buffered events, then `error`. */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#failure = { error };
    this.end();
  }

  /** The reader is gone: drops what is buffered and tells the producer (through `onClose`). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer = [];
    this.#ended = true;
    this.#signal();
    this.#cleanup();
  }

  /** Runs `fn` once, when the feed ends or is closed (e.g. to unsubscribe from a session). */
  onClose(fn: () => void): void {
    if (this.#ended) fn();
    else this.#onClose.push(fn);
  }

  /**
   * Waits for events and returns all that are buffered; `[]` when `timeoutMs` passed without any
   * (time for a keep-alive), `null` once the feed has ended and is drained. Throws the producer's
   * failure after the events before it.
   */
  async take(timeoutMs?: number): Promise<AgentStreamEvent[] | null> {
    if (this.#buffer.length === 0 && !this.#ended) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        if (timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs > 0) timer = setTimeout(resolve, timeoutMs);
      });
      this.#wake = undefined;
      if (timer !== undefined) clearTimeout(timer);
    }
    if (this.#buffer.length > 0) {
      const batch = this.#buffer;
      this.#buffer = [];
      return batch;
    }
    if (this.#ended) {
      if (this.#failure && !this.#closed) {
        const { error } = this.#failure;
        this.#failure = undefined;
        throw error;
      }
      return null;
    }
    return [];
  }

  async *[Symbol.asyncIterator](): AsyncIterator<AgentStreamEvent> {
    try {
      for (;;) {
        const batch = await this.take();
        if (batch === null) return;
        for (const event of batch) yield event;
      }
    } finally {
      this.close();
    }
  }

  #signal(): void {
    this.#wake?.();
  }

  #cleanup(): void {
    const fns = this.#onClose.splice(0);
    for (const fn of fns) {
      try {
        fn();
      } catch {
        // Cleanup must not throw into the producer.
      }
    }
  }
}

/**
 * Starts copying a run's events into a new feed once the run has started: resolves with the feed
 * when its first event is there, and rejects when the run was refused before it started (busy in
 * another process, awaiting an approval, nothing to resume; such a run ends without events). So
 * an HTTP answer can carry the refusal's status (409) instead of a stream of one `error`.
 * Leaving early never stops the run: it keeps going on its session and can be followed again.
 */
export async function startRun(run: AsyncIterable<AgentStreamEvent>): Promise<EventFeed> {
  const events = run[Symbol.asyncIterator]();
  const first = await events.next();
  const feed = new EventFeed();
  if (first.done) {
    feed.end();
    return feed;
  }
  feed.push(first.value);
  void (async () => {
    try {
      for (;;) {
        if (feed.closed) {
          await events.return?.();
          return;
        }
        const next = await events.next();
        if (next.done) break;
        feed.push(next.value);
      }
      feed.end();
    } catch (error) {
      feed.fail(error);
    }
  })();
  return feed;
}
