import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { EventSink } from '@lousho/protocol';
import type { AgentStreamEvent } from '@lousho/protocol';

/**
 * Buffers a run's events for one `for await` consumer. The run never waits for the consumer
 * (events are small and a run must not stall because nobody reads), and the iterator ends
 * once the run has ended and the buffer is drained.
 */
export class EventQueue implements AsyncIterable<AgentStreamEvent> {
  #buffer: AgentStreamEvent[] = [];
  #head = 0;
  #closed = false;
  #wake: (() => void) | undefined;
  #iterated = false;
  #failure: { error: unknown } | undefined;
  /** The consumer of `pipe()`, while it reads. */
  #sink: EventSink | undefined;

  /** Adds an event for the consumer (ignored once closed). */
  push(event: AgentStreamEvent): void {
    if (this.#closed) return;
    const sink = this.#sink;
    if (sink) {
      sink.push(event);
      // Its reader went away: nothing more is kept for it (as when a `for await` consumer leaves).
      if (sink.closed) {
        this.#closed = true;
        this.#sink = undefined;
      }
      return;
    }
    this.#buffer.push(event);
    this.#wake?.();
  }

  /** Ends the stream: the consumer gets what is buffered, then the end. */
  close(): void {
    this.#closed = true;
    const sink = this.#sink;
    this.#sink = undefined;
    if (sink) {
      if (this.#failure) sink.fail(this.#failure.error);
      else sink.end();
    }
    this.#wake?.();
  }

  /**
   * The events, handed to `sink` as they come instead of iterated: what is buffered at once, then
   * each one when it is pushed, without a promise per event; then `end()` or `fail()`. Instead of
   * iterating (once, like it).
   */
  pipe(sink: EventSink): void {
    this.#claim();
    const buffered = this.#buffer.slice(this.#head);
    const closed = this.#closed;
    this.#buffer = [];
    this.#head = 0;
    this.#closed = false;
    this.#sink = sink;
    // Through `push` and `close`, as if they came now: a sink that closes is let go there.
    for (const event of buffered) this.push(event);
    if (closed) this.close();
  }

  /** The events may be read once. */
  #claim(): void {
    if (this.#iterated) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, 'A run can be iterated once.', { hint: 'Use agent.session(id) or a client to watch it from several places.' });
    this.#iterated = true;
  }

  /** Ends the stream with `error` (thrown to the consumer after the buffered events): a run that never started. */
  fail(error: unknown): void {
    if (this.#closed) return;
    this.#failure = { error };
    this.close();
  }

  /** The events, once (a second iteration throws `LOUSHO_INVALID_INPUT`). */
  async *[Symbol.asyncIterator](): AsyncIterator<AgentStreamEvent> {
    this.#claim();
    try {
      for (;;) {
        if (this.#head < this.#buffer.length) {
          const event = this.#buffer[this.#head]!;
          this.#buffer[this.#head++] = undefined as never;
          if (this.#head > 1024 && this.#head * 2 > this.#buffer.length) {
            this.#buffer = this.#buffer.slice(this.#head);
            this.#head = 0;
          }
          yield event;
          continue;
        }
        if (this.#closed) {
          if (this.#failure) throw this.#failure.error;
          return;
        }
        await new Promise<void>((resolve) => (this.#wake = resolve));
        this.#wake = undefined;
      }
    } finally {
      // The consumer left (or read to the end): nothing more is kept for it.
      this.#closed = true;
      this.#buffer = [];
      this.#head = 0;
    }
  }
}
