import type { SessionStore, StoreSignals } from '../stores/types.js';
import type { SessionRuntime } from './session-runtime.js';

/** How often a followed run of another process is read without a signal (a safety net, not the path). */
const POLL_MS = 1000;

/**
 * Feeds a session's runtime with the events another process appends, while someone here follows
 * the session: on every signal (and once when following starts, for what was appended before the
 * watch), it reads the store after the runtime's `lastSeq` and hands the events to
 * `receiveStored`. One read at a time; a signal during a read causes one more read after it, so
 * nothing is missed and nothing is read twice.
 */
export class RemoteFollower {
  readonly #runtime: SessionRuntime;
  readonly #store: SessionStore;
  readonly #signals: StoreSignals;
  #refs = 0;
  #unwatch: (() => void) | undefined;
  #reading = false;
  #again = false;
  #poll: ReturnType<typeof setInterval> | undefined;

  constructor(runtime: SessionRuntime, store: SessionStore, signals: StoreSignals) {
    this.#runtime = runtime;
    this.#store = store;
    this.#signals = signals;
  }

  /** True while at least one follower needs it. */
  get used(): boolean {
    return this.#refs > 0;
  }

  /** One more follower; the returned function (idempotent) removes it. */
  add(): () => void {
    if (this.#refs++ === 0) {
      this.#unwatch = this.#signals.watch(this.#runtime.id, () => void this.#read());
      void this.#read();
      // Signals are hints: one lost (a listening connection that broke, a notification missed in a
      // race) must cost a delay, never a stream that waits forever. So while a run of another
      // process is followed, the store is also read now and then without a signal.
      this.#poll = setInterval(() => {
        if (this.#runtime.status === 'running' && !this.#runtime.active) void this.#read();
      }, POLL_MS);
      (this.#poll as { unref?: () => void }).unref?.();
    }
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      if (--this.#refs === 0) {
        this.#unwatch?.();
        this.#unwatch = undefined;
        clearInterval(this.#poll);
      }
    };
  }

  async #read(): Promise<void> {
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = true;
    try {
      do {
        this.#again = false;
        // A run of this process delivers its own events as it emits them.
        if (this.#refs === 0 || this.#runtime.active) break;
        const events = await this.#store.eventsAfter(this.#runtime.id, this.#runtime.lastSeq);
        this.#runtime.receiveStored(events);
      } while (this.#again);
    } catch {
      // The store is unreachable for now: the next signal, or the poll below, reads again.
    } finally {
      this.#reading = false;
    }
  }
}
