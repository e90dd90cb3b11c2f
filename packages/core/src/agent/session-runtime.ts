import type { AgentStreamEvent, PendingApprovalInfo, UnsequencedStreamEvent } from '@lousho/protocol';
import { stampEvent } from '@lousho/protocol';
import { endsLeg } from '@lousho/protocol';
import type { Message } from '@lousho/protocol';
import type { EventToAppend, SessionStore, SessionStatus } from '@lousho/protocol';
import type { RunUsage } from '@lousho/protocol';
import { compactEventLog, replayAfter } from '@lousho/store-kit';
import { indexAfter } from '../stores/memory-store.js';
import type { SessionListener } from '@lousho/protocol';

/** What a store knows about a session, to rebuild its runtime in a new process. */
export interface HydratedSession {
  owner?: string;
  status: SessionStatus;
  pendingApproval: PendingApprovalInfo | null;
  runStartIndex: number;
  lastSeq: number;
  messages: Message[];
  events: AgentStreamEvent[];
}

/**
 * The writer of a run leg's events: its lease (appends carry `holder` while leased) and what the
 * leg learns from the store. One object per leg, so a leg whose append failed writes nothing more.
 */
export interface AppendFence {
  holder: string;
  /** Called when the store refused an append because the lease is gone. */
  onLost(): void;
  /**
   * Called once when the store failed an append for another reason (e.g. the database is gone):
   * nothing of the batch was delivered, and nothing the leg emits later will be stored.
   */
  onFailed(error: unknown): void;
}

/**
 * Legs whose append failed ('failed') or was refused for a lost lease ('lost'): nothing more of
 * theirs is stored. One map for every session (a fence belongs to one leg of one session): a
 * WeakMap per session would cost every idle session about 140 B.
 */
const BROKEN_LEGS = new WeakMap<AppendFence, 'failed' | 'lost'>();

interface QueuedEvent {
  item: EventToAppend;
  fence: AppendFence | undefined;
  leased: boolean;
}
/** The queue of every session with nothing queued (never added to: see `SessionRuntime.emit`). */
const NO_QUEUE: QueuedEvent[] = [];

/** Hands `event` to one listener: its failure must not break the run or the other listeners. */
function notifyOne(listener: SessionListener, event: AgentStreamEvent): void {
  try {
    listener(event);
  } catch {
    // Ignored (see above).
  }
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The seq after the last leg end of an ordered log: where the events of a leg not yet ended (or compacted) begin. */
function afterLastLegEnd(log: readonly AgentStreamEvent[]): number {
  for (let i = log.length; i--; ) if (endsLeg(log[i]!)) return log[i]!.seq + 1;
  return 0;
}

/**
 * One conversation as this process sees it: its transcript, its status and its numbered event log.
 *
 * With a session store, the store numbers the events (`appendEvents` assigns `seq`), and only then
 * are they logged here and handed to the local listeners: every consumer (a stream, the HTTP
 * handler, an in-process UI client) sees the store's numbers. A store that answers synchronously
 * (memory, SQLite) keeps delivery synchronous; an async one delivers in order, a little later.
 * Runs of other processes reach the listeners through `receiveStored` (fed by `RemoteFollower`
 * when the store has signals). Without a store, events are numbered here.
 */
export class SessionRuntime {
  readonly id: string;
  messages: Message[] = [];
  status: SessionStatus = 'idle';
  pendingApproval: PendingApprovalInfo | null = null;
  /** How many transcript messages came before the event log (see `SessionState.runStartIndex`); undefined until known. */
  runStartIndex: number | undefined;
  owner: string | undefined;
  lastUsage: RunUsage | undefined;
  /** The run leg of this process working on the session, if any (`status` may also say 'running' for another process's run). */
  activeLeg: object | undefined;
  get active(): boolean {
    return this.activeLeg !== undefined;
  }
  /** The controller of the running turn, so `stop()` can reach it from anywhere. */
  abortController: AbortController | undefined;
  /** Bumped by every local run, so a load from the store never overwrites newer local state. */
  version = 0;
  /**
   * True once events of another process's run were delivered here (`receiveStored`): the log and
   * status follow that run, but the transcript does not, so the next load must read the store.
   */
  stale = false;
  #seq = 0;
  /**
   * The session's events, every run of it, in their stored form (the deltas of an ended leg merged):
   * what rebuilds the session's UI state, and what a stream a client lost is replayed from.
   */
  #log: AgentStreamEvent[] = [];
  /** Events from this seq on belong to a leg that has not ended yet: not compacted. */
  #uncompactedFrom = 0;
  /** Merged deltas before this seq have given up their piece sizes (see `#slim`). */
  #slimmedUpTo = 0;
  /** Stored events the listeners get later (see `holdListeners`). */
  #held: AgentStreamEvent[] | undefined;
  /**
   * Made on the first subscription: most idle sessions have no listener, and an empty Set costs
   * about 190 B. The listener itself while there is one (a run's own stream, as a rule): one call
   * per event, not a Set's iteration; a Set once there are more.
   */
  #listeners: SessionListener | Set<SessionListener> | undefined;
  readonly #store: SessionStore | undefined;
  /** Events on their way to an async store; the shared `NO_QUEUE` until there is one (an empty array per idle session costs 32 B). */
  #queue: QueuedEvent[] = NO_QUEUE;
  #inflight: Promise<void> | undefined;
  #failure: { error: unknown } | undefined;

  constructor(id: string, store?: SessionStore) {
    this.id = id;
    this.#store = store;
  }

  get lastSeq(): number {
    return this.#seq;
  }

  /** The session's log as this process has it (stored form: merged deltas keep their `pieceSizes`). Read only. */
  get log(): readonly AgentStreamEvent[] {
    return this.#log;
  }

  /**
   * While events emitted here are still on their way to an async store: a promise that resolves
   * once every one of them is stored (or refused). Undefined when nothing is pending, so a caller
   * with a synchronous store goes on without waiting a tick.
   */
  get appending(): Promise<void> | undefined {
    return this.#inflight && this.settled();
  }

  /**
   * Numbers an event (through the store, if any), records it and hands it to every listener.
   * `fence` is the emitting leg's writer; its appends carry the lease holder while `leased`.
   *
   * With a store, listeners only ever get an event under the number the store gave it: a leg whose
   * append failed stores nothing more (a log with a hole would replay into a different state), and
   * its end (`run.done` or `error`) reaches this process's listeners without a `seq` (a number the
   * store may give to another event must never reach a client). A leg that lost its lease ends
   * here without an end event: the run that took over writes the session's log now, and a client
   * picks it up from there (`Last-Event-ID`).
   */
  emit(runId: string, event: UnsequencedStreamEvent, fence?: AppendFence, leased = true): void {
    if (!this.#store) {
      this.#deliver([stampEvent(event, this.#seq + 1, runId, this.id)]);
      if (endsLeg(event)) this.#compact(this.#endLeg(this.#seq));
      return;
    }
    const broken = fence && BROKEN_LEGS.get(fence);
    if (broken) {
      if (broken === 'failed' && endsLeg(event)) this.#deliverUnnumbered(runId, event);
      return;
    }
    const item: EventToAppend = { runId, event };
    const underLease = leased && fence !== undefined;
    if (this.#inflight || this.#queue.length > 0) {
      if (this.#queue === NO_QUEUE) this.#queue = [];
      this.#queue.push({ item, fence, leased: underLease });
      if (!this.#inflight) this.#drain();
      return;
    }
    // Nothing waiting (always so with a synchronous store): appended at once, without a trip
    // through the queue, which cost a queue entry, a batch and a copy of it per event.
    this.#append([item], fence, underLease);
  }

  /**
   * Ends a leg that was cut off from the store (it failed, or the lease went to another run) without
   * storing anything more of it. Its `end` reaches this process's listeners without a number,
   * unless the lease was `lost`: then nothing is delivered, and a client goes on with the log the
   * run that took over writes. (Without a store, numbers are this process's own: a normal emit.)
   */
  endUnstored(runId: string, end: UnsequencedStreamEvent, fence: AppendFence | undefined, lost: boolean): void {
    if (!this.#store) {
      this.emit(runId, end, fence);
      return;
    }
    if (fence && !BROKEN_LEGS.has(fence)) {
      BROKEN_LEGS.set(fence, lost ? 'lost' : 'failed');
      this.#queue = this.#queue.filter((q) => q.fence !== fence);
    }
    if (!lost && (!fence || BROKEN_LEGS.get(fence) === 'failed')) this.#deliverUnnumbered(runId, end);
  }

  /**
   * Resolves once every event emitted so far reached the store (or was refused), keeping a failure
   * for `flush`. A run waits for it before giving its lease up: with an async store, appends fenced
   * by the lease may still be on their way, and would be refused once it is released.
   */
  async settled(): Promise<void> {
    while (this.#inflight) await this.#inflight;
  }

  /** Resolves once every emitted event is numbered and delivered; throws if the store failed. */
  async flush(): Promise<void> {
    while (this.#inflight) await this.#inflight;
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure) throw failure.error;
  }

  #drain(): void {
    while (this.#queue.length > 0 && !this.#inflight) {
      // One store call per batch of events of the same leg, under its lease or not.
      const { fence, leased } = this.#queue[0]!;
      let n = 1;
      while (n < this.#queue.length && this.#queue[n]!.fence === fence && this.#queue[n]!.leased === leased) n++;
      this.#append(
        this.#queue.splice(0, n).map((q) => q.item),
        fence,
        leased,
      );
    }
    if (this.#queue.length === 0) this.#queue = NO_QUEUE;
  }

  /** One store call for `items` (events of one leg); an async answer holds the queue until it is in. */
  #append(items: EventToAppend[], fence: AppendFence | undefined, leased: boolean): void {
    const store = this.#store!;
    const options = leased && fence ? { holder: fence.holder } : undefined;
    let answer: AgentStreamEvent[] | Promise<AgentStreamEvent[]>;
    try {
      answer = store.appendEvents(this.id, items, options);
    } catch (error) {
      this.#fail(error, items, fence);
      return;
    }
    if (!isPromise(answer)) {
      this.#delivered(answer);
      return;
    }
    const inflight: Promise<void> = answer
      .then(
        (numbered) => this.#delivered(numbered),
        (error: unknown) => this.#fail(error, items, fence),
      )
      .finally(() => {
        if (this.#inflight === inflight) this.#inflight = undefined;
        this.#drain();
      });
    this.#inflight = inflight;
  }

  /** The leg that ends at `seq` is ended: returns the seq its uncompacted events start at. */
  #endLeg(seq: number): number {
    const from = this.#uncompactedFrom;
    this.#uncompactedFrom = seq + 1;
    return from;
  }

  /**
   * Stored events are delivered; a leg that ended gets its events compacted, here and in the
   * store (only that leg's: the work does not grow with the session's older runs).
   */
  #delivered(numbered: readonly AgentStreamEvent[]): void {
    this.#deliver(numbered);
    const last = numbered[numbered.length - 1];
    if (!last || !endsLeg(last)) return;
    const from = this.#endLeg(last.seq);
    const store = this.#store!;
    let adopted = false;
    try {
      const done = store.compactEvents?.(this.id, last.seq, from);
      if (isPromise(done)) done.catch(() => {});
      else adopted = done === undefined && !!store.compactEvents && this.#adoptStoredLog(store, from);
    } catch {
      // Compaction only saves space: a store that fails at it still has the full log.
    }
    if (!adopted) this.#compact(from);
    this.#slim(from);
  }

  /**
   * What the log keeps of ended legs costs less memory (the session keeps every run): a merged reply
   * shares its string with the transcript's message when they are the same text, and the merged
   * deltas of legs before the one that just ended drop their piece sizes (a client resuming inside
   * one of those gets a gap and reads the session again; resuming inside the latest stays exact).
   * The objects are changed in place: with the memory store, the store's log holds the same ones.
   */
  #slim(from: number): void {
    const log = this.#log;
    const older = this.#slimmedUpTo;
    this.#slimmedUpTo = from;
    for (let i = indexAfter(log, older - 1); i < log.length && log[i]!.seq < from; i++) delete (log[i] as { pieceSizes?: unknown }).pieceSizes;
    const messages = this.messages;
    for (let i = indexAfter(log, from - 1); i < log.length; i++) {
      const event = log[i]!;
      if (event.type !== 'text.delta' || !('pieceSizes' in event)) continue;
      for (let m = messages.length; m-- > 0; ) {
        const content = messages[m]!.content;
        if (content === event.delta) {
          (event as { delta: string }).delta = content;
          break;
        }
      }
    }
  }

  /**
   * After a synchronous store compacted a leg, takes the store's events for it into this log (for
   * the memory store, the very same objects): the merged reply is then kept once, not twice.
   */
  #adoptStoredLog(store: SessionStore, from: number): boolean {
    const stored = store.eventsAfter(this.id, from - 1);
    if (isPromise(stored) || stored.at(-1)?.seq !== this.#seq) return false;
    this.#replaceFrom(from, stored);
    return true;
  }

  /**
   * Replaces the events with `seq >= from` by `events`, in a new array: one cut in place would keep
   * the capacity of every delta it once held.
   */
  #replaceFrom(from: number, events: readonly AgentStreamEvent[]): void {
    this.#log = this.#log.slice(0, indexAfter(this.#log, from - 1)).concat(events);
  }

  /**
   * A finished leg's deltas are merged (see `compactEventLog`): a late client resuming inside a
   * merged reply gets a gap and re-reads the session; everyone else replays the same state.
   */
  #compact(from: number): void {
    const range = this.#log.slice(indexAfter(this.#log, from - 1));
    const compacted = compactEventLog(range);
    if (compacted !== range) this.#replaceFrom(from, compacted);
  }

  /**
   * The store refused or failed a batch: none of it is delivered (none of it has a number the store
   * vouches for), and nothing else of the leg is stored. The leg's end, if it was among them,
   * reaches the listeners without a number (unless the lease was lost); the leg learns of it.
   */
  #fail(error: unknown, items: readonly EventToAppend[], fence: AppendFence | undefined): void {
    const lost = (error as { code?: unknown } | null)?.code === 'LOUSHO_SESSION_LEASE_LOST';
    this.#failure ??= { error };
    // A write that failed may have been stored after all (the answer was lost, not the commit): this
    // process's view is no longer the store's, and the next load reads the store again.
    this.stale = true;
    let dropped = items;
    if (fence && !BROKEN_LEGS.has(fence)) {
      BROKEN_LEGS.set(fence, lost ? 'lost' : 'failed');
      dropped = dropped.concat(this.#queue.filter((q) => q.fence === fence).map((q) => q.item));
      this.#queue = this.#queue.filter((q) => q.fence !== fence);
      if (lost) fence.onLost();
      else fence.onFailed(error);
    }
    let end: EventToAppend | undefined;
    if (!lost) for (const item of dropped) if (endsLeg(item.event)) end = item;
    if (end) this.#deliverUnnumbered(end.runId, end.event);
  }

  /** A leg's end that could not be stored: to this process's listeners (in order with any held events), without a `seq` and outside the log. */
  #deliverUnnumbered(runId: string, event: UnsequencedStreamEvent): void {
    const unnumbered = stampEvent(event, undefined, runId, this.id);
    if (this.#held) this.#held.push(unnumbered);
    else this.#notify(unnumbered);
  }

  #deliver(numbered: readonly AgentStreamEvent[]): void {
    for (const event of numbered) {
      this.#seq = event.seq;
      this.#log.push(event);
      if (this.#held) this.#held.push(event);
      else this.#notify(event);
    }
  }

  #notify(event: AgentStreamEvent): void {
    const listeners = this.#listeners;
    if (listeners === undefined) return;
    if (typeof listeners === 'function') {
      notifyOne(listeners, event);
      return;
    }
    for (const listener of listeners) notifyOne(listener, event);
  }

  /**
   * Until `releaseListeners()`, events are numbered, stored and logged as usual, but this process's
   * listeners get them only then. A leg stores its last events while it still holds the session's
   * lease (so a reader never finds the lease free and the leg's end missing unless its process
   * died), and lets the listeners know once the lease is free (so one may start the next turn at once).
   */
  holdListeners(): void {
    this.#held ??= [];
  }

  /** Hands the events held since `holdListeners()` to the listeners, in order, and stops holding. */
  releaseListeners(): void {
    const held = this.#held;
    this.#held = undefined;
    for (const event of held ?? []) this.#notify(event);
  }

  /**
   * Delivers events another process appended to the store (read back with `eventsAfter`, in their
   * stored form) to this process's listeners, as if they had been emitted here: only those after
   * `lastSeq`, a merged delta cut where it overlaps (`replayAfter`), never a `pieceSizes`. Ignored
   * while a run of this process works on the session (its own events are delivered as emitted).
   * `interrupted`: the caller checked that no run holds the session, so a `run.interrupted` at the
   * end leaves it `interrupted` (else a run that took it over starts right after it).
   */
  receiveStored(events: readonly AgentStreamEvent[], interrupted = false): void {
    if (this.active) return;
    const replay = replayAfter(events, this.#seq);
    for (const event of replay) {
      if (event.seq <= this.#seq) continue;
      this.stale = true;
      if (event.type === 'run.start') {
        this.status = 'running';
        this.pendingApproval = null;
      } else if (event.type === 'approval.requested') {
        this.pendingApproval = event.approval;
      } else if (event.type === 'run.done') {
        this.status = event.finishReason === 'awaiting-approval' ? 'awaiting-approval' : 'idle';
        if (this.status === 'idle') this.pendingApproval = null;
      } else if (event.type === 'error') {
        this.status = 'idle';
        this.pendingApproval = null;
      } else if (event.type === 'run.interrupted') {
        this.status = interrupted && event === replay.at(-1) ? 'interrupted' : 'running';
        this.pendingApproval = null;
      }
      this.#deliver([event]);
      if (endsLeg(event)) this.#uncompactedFrom = event.seq + 1;
    }
  }

  /** True while someone in this process follows the session. */
  get followed(): boolean {
    return this.#listeners !== undefined;
  }

  /** Takes over what a store holds (a session this process has not seen, or one another process changed). */
  hydrate(state: HydratedSession): void {
    this.stale = false;
    this.owner = state.owner;
    this.status = state.status;
    this.pendingApproval = state.pendingApproval;
    this.runStartIndex = state.runStartIndex;
    this.messages = state.messages;
    this.adoptLog(state.events, state.lastSeq);
  }

  /**
   * Takes the session's log as the store holds it (whole, in seq order), e.g. when another process
   * appended to it. Listeners following the session get what they have not seen yet.
   */
  adoptLog(events: readonly AgentStreamEvent[], lastSeq: number): void {
    const missed = this.followed && this.#seq > 0 ? replayAfter(events, this.#seq) : [];
    this.#log = events.slice();
    this.#seq = Math.max(lastSeq, this.#log.at(-1)?.seq ?? 0);
    this.#uncompactedFrom = afterLastLegEnd(this.#log);
    this.#slimmedUpTo = 0;
    for (const event of missed) this.#notify(event);
  }

  /**
   * Events with `seq > afterSeq` in the log, as a client is sent them (`replayAfter`); at most
   * `limit` of them, so a slow reader can page through a long log.
   */
  eventsAfter(afterSeq: number, limit = Infinity): AgentStreamEvent[] {
    const start = indexAfter(this.#log, afterSeq);
    return replayAfter(this.#log.slice(start, start + limit), afterSeq);
  }

  /** The seq of the first event still replayable, or `lastSeq + 1` when the log is empty. */
  get firstReplayableSeq(): number {
    const first = this.#log[0] as (AgentStreamEvent & { fromSeq?: number }) | undefined;
    return first ? (first.fromSeq ?? first.seq) : this.#seq + 1;
  }

  /** Calls `listener` with every event of the session from now on; returns the function that stops it. */
  subscribe(listener: SessionListener): () => void {
    const current = this.#listeners;
    if (current === undefined) this.#listeners = listener;
    else if (typeof current !== 'function') current.add(listener);
    else if (current !== listener) this.#listeners = new Set([current, listener]);
    let subscribed = true;
    return () => {
      // Once: a second call must not take away a later subscription of the same function.
      if (!subscribed) return;
      subscribed = false;
      const listeners = this.#listeners;
      if (listeners === listener) this.#listeners = undefined;
      else if (listeners !== undefined && typeof listeners !== 'function' && listeners.delete(listener) && listeners.size === 0) this.#listeners = undefined;
    };
  }
}
