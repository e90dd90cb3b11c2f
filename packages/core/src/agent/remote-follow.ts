import type { LeaseState, MaybePromise, SessionStore, StoreSignals } from '@lousho/protocol';
import type { SessionRuntime } from './session-runtime.js';

/** How often a followed run of another process is read without a signal (a safety net, not the path). */
const POLL_MS = 1000;
/** How soon a `run.interrupted` read while someone holds the lease is looked at again. */
const HOLD_MS = 100;

/** What a follower needs to tell a run that goes on from one that was cut off. */
export interface FollowerLease {
  /** The session's lease and run state, now (`CheckpointStore.leaseState`). */
  state(): MaybePromise<LeaseState | undefined>;
  /** Ends the leg of a run that was cut off and whose lease ran out (`closeAbandonedLeg`). */
  closeAbandoned(): Promise<unknown>;
}

/**
 * Feeds a session's runtime with the events another process appends, while someone here follows
 * the session: on every signal (and once when following starts, for what was appended before the
 * watch), it reads the store after the runtime's `lastSeq` and hands the events to
 * `receiveStored`. One read at a time; a signal during a read causes one more read after it, so
 * nothing is missed and nothing is read twice.
 *
 * It also notices a run that nobody runs any more: while the followed run is silent, it looks at
 * the lease now and then, and when the lease ran out with the run still `running`, it ends the
 * run's leg in the log (`run.interrupted`), so followers end instead of waiting for an end that
 * will not come. A `run.interrupted` read while the lease is held (a run is taking the session
 * over and starts right after it) is held back until that run's start is read too.
 */
export class RemoteFollower {
  readonly #runtime: SessionRuntime;
  readonly #store: SessionStore;
  readonly #signals: StoreSignals;
  readonly #lease: FollowerLease | undefined;
  #refs = 0;
  #unwatch: (() => void) | undefined;
  #reading = false;
  #again = false;
  #poll: ReturnType<typeof setInterval> | undefined;
  /** `lastSeq` at the previous poll: unchanged means the followed run was silent for a whole interval. */
  #seenAtPoll = -1;
  #held: ReturnType<typeof setTimeout> | undefined;

  constructor(runtime: SessionRuntime, store: SessionStore, signals: StoreSignals, lease?: FollowerLease) {
    this.#runtime = runtime;
    this.#store = store;
    this.#signals = signals;
    this.#lease = lease;
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
      this.#poll = setInterval(() => void this.#tick(), POLL_MS);
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
        clearTimeout(this.#held);
        this.#held = undefined;
      }
    };
  }

  async #tick(): Promise<void> {
    const runtime = this.#runtime;
    if (runtime.status !== 'running' || runtime.active) return;
    const silent = runtime.lastSeq === this.#seenAtPoll;
    this.#seenAtPoll = runtime.lastSeq;
    if (silent && this.#lease) {
      try {
        const state = await this.#lease.state();
        if (state && !state.leased && state.run === 'running') await this.#lease.closeAbandoned();
      } catch {
        // The store is unreachable for now: the next tick looks again.
      }
    }
    void this.#read();
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
        if (events.at(-1)?.type === 'run.interrupted' && this.#lease) {
          // Whoever wrote it holds the lease a moment longer, or is a run taking the session over
          // (its `run.start` follows): decide once the lease is free or more has been appended.
          const state = await this.#lease.state();
          if (state?.leased) {
            this.#runtime.receiveStored(events.slice(0, -1));
            this.#holdBack();
            break;
          }
          this.#runtime.receiveStored(events, true);
        } else {
          this.#runtime.receiveStored(events);
        }
      } while (this.#again);
    } catch {
      // The store is unreachable for now: the next signal, or the poll below, reads again.
    } finally {
      this.#reading = false;
    }
  }

  #holdBack(): void {
    if (this.#held !== undefined) return;
    this.#held = setTimeout(() => {
      this.#held = undefined;
      void this.#read();
    }, HOLD_MS);
    (this.#held as { unref?: () => void }).unref?.();
  }
}
