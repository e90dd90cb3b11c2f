import type { AgentStreamEvent } from '../contracts/events.js';
import { abortReason, openChunkSource, type ChunkSource, type EventStreamSource } from './chunk-source.js';
import { createEventStreamDecoder, type EventStreamDecoder, type EventStreamDecoderOptions } from './decoder.js';

export type { EventStreamSource } from './chunk-source.js';

/** Options of `parseEventStream()`: the decoder's (`maxEventSize`, `onRetry`) and an abort signal. */
export interface ParseEventStreamOptions extends EventStreamDecoderOptions {
  /** Stops reading, cancels the source and makes the iteration throw the signal's reason (an `AbortError`). */
  signal?: AbortSignal;
}

/** The events of one stream, for `for await`. Behaves like an async generator. */
export interface AgentEventStream extends AsyncIterableIterator<AgentStreamEvent> {
  /**
   * The next event, or `done` when the stream ended. Rejects with an `EventStreamError` on a malformed
   * event, or with the signal's reason on abort. Reads from the source only when no decoded event waits.
   */
  next(): Promise<IteratorResult<AgentStreamEvent, undefined>>;
  /** Stops reading and cancels the source. */
  return(): Promise<IteratorResult<AgentStreamEvent, undefined>>;
  /** Stops reading, cancels the source and rejects with `error`. */
  throw(error?: unknown): Promise<IteratorResult<AgentStreamEvent, undefined>>;
  /** The SSE `id` of the last event read (its sequence number): send it as `Last-Event-ID` to resume. */
  readonly lastEventId: string;
}

/**
 * Reads an SSE stream of the Lousho protocol and yields its agent events, in order.
 *
 * A malformed event ends the iteration with an `EventStreamError` after every good event before
 * it was yielded. The source is cancelled (and a reader's lock released) however the iteration
 * ends: completion, error, abort or an early `break`. Nothing is read before the first `next()`.
 */
export function parseEventStream(source: EventStreamSource, options: ParseEventStreamOptions = {}): AgentEventStream {
  return new EventStreamIterator(source, options);
}

const DONE: IteratorResult<AgentStreamEvent, undefined> = Object.freeze({ value: undefined, done: true });

/**
 * Hand-written rather than an `async function*`: when a chunk holds many events, each `next()`
 * is served from the decoded batch with one resolved promise, which is several times cheaper
 * than resuming a generator. Calls made while another is in flight wait for it, as with a generator.
 */
class EventStreamIterator implements AgentEventStream {
  readonly #sourceInput: EventStreamSource;
  readonly #signal: AbortSignal | undefined;
  readonly #decoder: EventStreamDecoder;
  #source: ChunkSource | null | undefined;
  readonly #batch: AgentStreamEvent[] = [];
  #index = 0;
  /** Calls still running or queued, and the result of the last one (undefined when idle). */
  #pending = 0;
  #current: Promise<IteratorResult<AgentStreamEvent, undefined>> | undefined;
  /** A parse failure, thrown once the good events before it were handed out. */
  #failure: { error: unknown } | undefined;
  #ended = false;
  #closed = false;

  constructor(source: EventStreamSource, options: ParseEventStreamOptions) {
    this.#sourceInput = source;
    this.#signal = options.signal;
    const batch = this.#batch;
    this.#decoder = createEventStreamDecoder((event) => batch.push(event), options);
  }

  get lastEventId(): string {
    return this.#decoder.lastEventId;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<AgentStreamEvent, undefined>> {
    if (this.#pending === 0) {
      // Fast path: a decoded event is waiting and no call is in flight.
      if (this.#index < this.#batch.length && !this.#signal?.aborted) return Promise.resolve({ value: this.#batch[this.#index++]!, done: false });
      this.#pending = 1;
      return (this.#current = this.#pull());
    }
    return this.#schedule(this.#pull);
  }

  return(): Promise<IteratorResult<AgentStreamEvent, undefined>> {
    return this.#schedule(async () => {
      try {
        await this.#close(false);
        return DONE;
      } finally {
        this.#settled();
      }
    });
  }

  throw(error?: unknown): Promise<IteratorResult<AgentStreamEvent, undefined>> {
    return this.#schedule(async () => {
      try {
        await this.#close(false);
        throw error;
      } finally {
        this.#settled();
      }
    });
  }

  /** Runs `run` after every call still in flight (as a generator would). */
  #schedule(run: () => Promise<IteratorResult<AgentStreamEvent, undefined>>): Promise<IteratorResult<AgentStreamEvent, undefined>> {
    const busy = this.#pending > 0;
    this.#pending++;
    const result = busy ? this.#current!.then(run, run) : run();
    this.#current = result;
    return result;
  }

  /** A call finished; runs before its caller sees the result, so the caller's next call can take the fast path. */
  #settled(): void {
    if (--this.#pending === 0) this.#current = undefined;
  }

  readonly #pull = async (): Promise<IteratorResult<AgentStreamEvent, undefined>> => {
    try {
      return await this.#read();
    } finally {
      this.#settled();
    }
  };

  async #read(): Promise<IteratorResult<AgentStreamEvent, undefined>> {
    const signal = this.#signal;
    const batch = this.#batch;
    for (;;) {
      if (this.#closed) return DONE;
      if (signal?.aborted) {
        await this.#close(false);
        throw abortReason(signal);
      }
      if (this.#index < batch.length) return { value: batch[this.#index++]!, done: false };
      batch.length = 0;
      this.#index = 0;
      if (this.#failure) {
        const { error } = this.#failure;
        await this.#close(false);
        throw error;
      }
      if (this.#ended) {
        await this.#close(true);
        return DONE;
      }
      let chunk: Uint8Array | undefined;
      try {
        if (this.#source === undefined) this.#source = await openChunkSource(this.#sourceInput, signal);
        if (this.#source !== null) {
          const next = await this.#source.read();
          if (signal?.aborted) throw abortReason(signal);
          chunk = next.done ? undefined : (next.value as Uint8Array);
        }
      } catch (error) {
        await this.#close(false);
        throw error;
      }
      try {
        if (chunk === undefined) {
          this.#ended = true;
          this.#decoder.end();
        } else {
          this.#decoder.push(chunk);
        }
      } catch (error) {
        // The events decoded before the bad one are in `batch`: hand them out first.
        this.#failure = { error };
      }
    }
  }

  async #close(finished: boolean): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#batch.length = 0;
    this.#index = 0;
    const source = this.#source;
    this.#source = null;
    if (source) await source.close(finished);
  }
}
