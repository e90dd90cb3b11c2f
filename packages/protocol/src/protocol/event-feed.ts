import { PIPE_EVENTS, type PipeableRun } from '../events/pipe.js';
import type { AgentStreamEvent } from '../contracts/events.js';

/** True for the events that end a run leg: `run.done` (finished or paused) and `error`. */
export function isLegEnd(event: AgentStreamEvent): boolean {
  return event.type === 'run.done' || event.type === 'error';
}

/** How big an event counts as, for a bound on what waits (e.g. its size in an event stream). */
export type EventSize = (event: AgentStreamEvent) => number;

export interface EventFeedOptions {
  /**
   * The most that may wait in the feed for its reader, measured with `sizeOf`. When more than one
   * event waits and together they pass it, the feed closes with `overflowed` set: its reader fell
   * too far behind to be buffered for. Default: no limit.
   */
  maxBufferedBytes?: number;
  /** How an event is measured against `maxBufferedBytes` (required with it). */
  sizeOf?: EventSize;
  /**
   * Events pulled on demand instead of pushed: `take()` calls it whenever the feed is empty, with how
   * many events it may push now; it pushes them (or ends the feed). A feed filled this way holds one
   * page at a time, however far behind its reader is. Call `notify()` when more become available.
   */
  refill?: (limit: number) => void;
}

/** An empty buffer, shared: never added to (`push` replaces an empty buffer). */
const NO_EVENTS: AgentStreamEvent[] = [];

/** How many events `refill` is asked for at a time. */
export const FEED_PAGE = 128;
/** A reader gathering a burst from a feed that does not measure its events takes it by this many events at most. */
const GATHER_EVENTS = 1024;

/**
 * A one-consumer buffer between a producer that never waits (an agent's session emits events
 * synchronously, a session's log is read page by page) and a reader that pulls at its own pace (an
 * HTTP response body, a client). `take()` hands over what is buffered (up to a size, when asked),
 * so a slow reader gets events in batches; `maxBufferedBytes` bounds what a reader that stopped
 * reading can hold.
 */
export class EventFeed implements AsyncIterable<AgentStreamEvent> {
  #buffer: AgentStreamEvent[] = [];
  /** Each buffered event's approximate size, kept when the buffer is bounded. */
  #sizes: number[] = [];
  #head = 0;
  #bytes = 0;
  #ended = false;
  #failure: { error: unknown } | undefined;
  #closed = false;
  #overflowed = false;
  #wake: (() => void) | undefined;
  /**
   * While the reader gathers a burst (`take` with `settle`): a push wakes it only once this many
   * bytes (or `GATHER_EVENTS` events, in a feed that does not measure them) wait. 0: every push does.
   */
  #gather = 0;
  readonly #onClose: (() => void)[] = [];
  readonly #max: number;
  readonly #sizeOf: EventSize | undefined;
  readonly #refill: ((limit: number) => void) | undefined;

  constructor(options: EventFeedOptions = {}) {
    this.#max = options.maxBufferedBytes ?? Infinity;
    this.#sizeOf = options.sizeOf;
    if (this.#max !== Infinity && !this.#sizeOf) throw new TypeError('EventFeed: maxBufferedBytes needs sizeOf.');
    this.#refill = options.refill;
  }

  /** True once the reader went away (`close()`) or fell too far behind: producers should stop. */
  get closed(): boolean {
    return this.#closed;
  }

  /** True when the feed closed because more than `maxBufferedBytes` waited for the reader. */
  get overflowed(): boolean {
    return this.#overflowed;
  }

  /** The approximate size of what waits for the reader (0 when the feed is not bounded). */
  get bufferedBytes(): number {
    return this.#bytes;
  }

  /** Adds the run's next event for the reader (or closes the feed when the reader fell too far behind). */
  push(event: AgentStreamEvent): void {
    if (this.#closed || this.#ended) return;
    // An empty buffer is replaced by one of exactly this event: a reader that keeps up takes every
    // event on its own, and `push` into `[]` would allocate room for 17 each time.
    if (this.#buffer.length === 0) this.#buffer = [event];
    else this.#buffer.push(event);
    if (this.#max !== Infinity) {
      const size = this.#sizeOf!(event);
      this.#sizes.push(size);
      this.#bytes += size;
      if (this.#bytes > this.#max && this.#buffer.length - this.#head > 1) {
        this.#overflowed = true;
        this.close();
        return;
      }
    }
    if (this.#bytes >= this.#gather || this.#buffer.length - this.#head >= GATHER_EVENTS) this.#signal();
  }

  /** More events can be pulled (`refill`): wakes a waiting reader. */
  notify(): void {
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
    this.#sizes = [];
    this.#head = 0;
    this.#bytes = 0;
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
   * Waits for events and returns those buffered: all of them, or with `limit` as many as fit in
   * `limit.maxBytes` measured with `limit.sizeOf` (at least one). `[]` when `timeoutMs` passed
   * without any (time for a keep-alive), `null` once the feed has ended and is drained. Throws the
   * producer's failure after the events before it.
   *
   * With `settle`, once events are there and the feed has not ended, it waits until `settle` calls
   * back before taking them, so that a producer still emitting (a burst) adds the rest of it to this batch.
   */
  take(timeoutMs?: number, limit?: { maxBytes: number; sizeOf: EventSize }, settle?: (settled: () => void) => void): Promise<AgentStreamEvent[] | null> {
    return new Promise((resolve, reject) => this.takeThen(resolve, reject, timeoutMs, limit, settle));
  }

  /**
   * `take()` with callbacks instead of a promise: `done` gets what `take` resolves with, `failed`
   * what it throws, exactly once (possibly before this returns). For a reader that takes on every
   * event (an event stream at a model's pace): no promise or async frame per wait.
   */
  takeThen(
    done: (batch: AgentStreamEvent[] | null) => void,
    failed: (error: unknown) => void,
    timeoutMs?: number,
    limit?: { maxBytes: number; sizeOf: EventSize },
    settle?: (settled: () => void) => void,
  ): void {
    const deadline = timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs > 0 ? Date.now() + timeoutMs : undefined;
    const gather = limit ? limit.maxBytes : Infinity;
    // Looked at again after each wait: the feed may have been closed or ended meanwhile.
    const step = (settled: boolean): void => {
      if (settled) settle = undefined;
      let batch: AgentStreamEvent[] | null | undefined;
      try {
        batch = this.#takeNow(deadline, limit, settle, gather, step);
      } catch (error) {
        // The producer's failure, or a `refill` that threw.
        failed(error);
        return;
      }
      if (batch !== undefined) done(batch);
    };
    step(false);
  }

  /** What `take` gives now, or undefined after starting a wait that calls `step` when it ends. */
  #takeNow(
    deadline: number | undefined,
    limit: { maxBytes: number; sizeOf: EventSize } | undefined,
    settle: ((settled: () => void) => void) | undefined,
    gather: number,
    step: (settled: boolean) => void,
  ): AgentStreamEvent[] | null | undefined {
    if (this.#head === this.#buffer.length && !this.#ended) this.#refill?.(FEED_PAGE);
    const waiting = this.#head < this.#buffer.length;
    if (!this.#ended && (!waiting || settle)) {
      // Events waiting to settle: only the settling (or the feed's end) ends the wait.
      const left = waiting || deadline === undefined ? undefined : deadline - Date.now();
      if (left !== undefined && left <= 0) return [];
      this.#wait(left, settle, gather, step);
      return undefined;
    }
    if (this.#head < this.#buffer.length) return this.#dequeue(limit);
    if (this.#failure && !this.#closed) {
      const { error } = this.#failure;
      this.#failure = undefined;
      throw error;
    }
    return null;
  }

  /** The events in order, as the reader takes them; ends when the feed does. */
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

  #dequeue(limit: { maxBytes: number; sizeOf: EventSize } | undefined): AgentStreamEvent[] {
    const start = this.#head;
    const length = this.#buffer.length;
    let end = length;
    if (limit) {
      // Sizes kept for the bound are reused; otherwise measured now.
      const sizeAt = (index: number): number => (this.#max !== Infinity ? this.#sizes[index]! : limit.sizeOf(this.#buffer[index]!));
      let taken = sizeAt(start);
      end = start + 1;
      while (end < length) {
        const next = sizeAt(end);
        if (taken + next > limit.maxBytes) break;
        taken += next;
        end++;
      }
    }
    if (this.#max !== Infinity) for (let i = start; i < end; i++) this.#bytes -= this.#sizes[i]!;
    if (start === 0 && end === length) {
      // All of it (a reader that keeps up, every time): the buffer itself is the batch, no copy.
      const batch = this.#buffer;
      this.#buffer = NO_EVENTS;
      this.#sizes.length = 0;
      return batch;
    }
    const batch = this.#buffer.slice(start, end);
    if (end === length) {
      this.#buffer = [];
      this.#sizes = [];
      this.#head = 0;
    } else if (end > 1024 && end * 2 > length) {
      // Drop the taken head now and then, so a long-lived feed does not keep it.
      this.#buffer = this.#buffer.slice(end);
      this.#sizes = this.#sizes.slice(end);
      this.#head = 0;
    } else {
      this.#head = end;
    }
    return batch;
  }

  /**
   * Until a push (see `#gather`), the end of the feed or `ms`, whichever comes first; then `then`,
   * in a microtask (as a promise's continuation would be: a producer's burst is over by then).
   * With `settle`, events (there already, or the push that brings them) do not end the wait yet:
   * it goes on until `settle` calls back, or a batch's worth (`gather` bytes) waits, and `then`
   * gets true (at once when `settle` called back: its burst is over). One wait, not two, for an
   * event and the burst it starts: a paced stream waits so on every event.
   */
  #wait(ms: number | undefined, settle: ((settled: () => void) => void) | undefined, gather: number, then: (settled: boolean) => void): void {
    let settling = false;
    const timer = ms === undefined ? undefined : setTimeout(() => wake(), ms);
    const wake = (): void => {
      // Woken again after this wait was over (e.g. `settle` calling back after a batch's worth came).
      if (this.#wake !== wake) return;
      if (timer !== undefined) clearTimeout(timer);
      if (settle && !settling && !this.#ended && this.#head < this.#buffer.length) {
        // Until the burst is over, or a batch's worth waits (the feed is then woken by `push`).
        settling = true;
        this.#gather = gather;
        settle(() => {
          if (this.#wake !== wake) return;
          this.#wake = undefined;
          this.#gather = 0;
          then(true);
        });
        return;
      }
      this.#wake = undefined;
      this.#gather = 0;
      const settled = settling;
      queueMicrotask(() => then(settled));
    };
    this.#wake = wake;
    if (settle && this.#head < this.#buffer.length) wake();
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
 * Starts copying a run's events into `feed` (a new one by default) once the run has started: resolves with the feed
 * when its first event is there, and rejects when the run was refused before it started (busy in
 * another process, awaiting an approval, nothing to resume; such a run ends without events). So
 * an HTTP answer can carry the refusal's status (409) instead of a stream of one `error`.
 * Leaving early never stops the run: it keeps going on its session and can be followed again.
 */
export async function startRun(run: AsyncIterable<AgentStreamEvent>, feed = new EventFeed()): Promise<EventFeed> {
  const pipe = (run as PipeableRun)[PIPE_EVENTS];
  if (pipe) {
    // A run from `agent.stream()`: its events are pushed as they are emitted, no promise per event.
    return new Promise<EventFeed>((resolve, reject) => {
      let started = false;
      const start = (): void => {
        started = true;
        resolve(feed);
      };
      pipe({
        push(event) {
          if (!started) start();
          feed.push(event);
        },
        end() {
          feed.end();
          if (!started) start();
        },
        fail(error) {
          if (started) feed.fail(error);
          else reject(error);
        },
        get closed() {
          return feed.closed;
        },
      });
    });
  }
  const events = run[Symbol.asyncIterator]();
  const first = await events.next();
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
