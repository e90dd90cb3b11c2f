import type { SessionStore, StoreSignals } from '../stores/types.js';
import type { SessionRuntime } from './session-runtime.js';

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
    }
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      if (--this.#refs === 0) {
        this.#unwatch?.();
        this.#unwatch = undefined;
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
      // The store is unreachable for now: the next signal (or the reconnect's) reads again.
    } finally {
      this.#reading = false;
    }
  }
}
