import { ERROR_CODES, SDKError } from '../errors.js';
import type { AgentStreamEvent } from '../events/types.js';

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

  /** Adds an event for the consumer (ignored once closed). */
  push(event: AgentStreamEvent): void {
    if (this.#closed) return;
    this.#buffer.push(event);
    this.#wake?.();
  }

  /** Ends the stream: the consumer gets what is buffered, then the end. */
  close(): void {
    this.#closed = true;
    this.#wake?.();
  }

  /** Ends the stream with `error` (thrown to the consumer after the buffered events): a run that never started. */
  fail(error: unknown): void {
    if (this.#closed) return;
    this.#failure = { error };
    this.close();
  }

  /** The events, once (a second iteration throws `LOUSHO_INVALID_INPUT`). */
  async *[Symbol.asyncIterator](): AsyncIterator<AgentStreamEvent> {
    if (this.#iterated) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, 'A run can be iterated once.', { hint: 'Use agent.session(id) or a client to watch it from several places.' });
    this.#iterated = true;
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
