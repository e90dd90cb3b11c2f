import type { AgentStreamEvent, PendingApprovalInfo, UnsequencedStreamEvent } from '../events/types.js';
import type { Message } from '../messages.js';
import type { EventToAppend, SessionStore } from '../stores/types.js';
import type { RunUsage } from '../usage/types.js';
import { compactEventLog, replayAfter } from '../stores/compact-log.js';

export type SessionStatus = 'idle' | 'running' | 'awaiting-approval';

export type SessionListener = (event: AgentStreamEvent) => void;

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

/** A run's lease on the session: its events are only appended while it holds it. */
export interface AppendFence {
  holder: string;
  /** Called when the store refused an append because the lease is gone. */
  onLost(): void;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The last event of a run leg (a run, or its continuation after an approval). */
function endsLeg(event: UnsequencedStreamEvent): boolean {
  return event.type === 'run.done' || event.type === 'error';
}

function startsLog(event: UnsequencedStreamEvent): boolean {
  return event.type === 'run.start' && !('continuation' in event && event.continuation);
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
  /** Transcript length when the event log (re)started; undefined until a run starts here. */
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
  /** Events since the start of the latest run: enough to replay a stream a client lost. */
  #log: AgentStreamEvent[] = [];
  readonly #listeners = new Set<SessionListener>();
  readonly #store: SessionStore | undefined;
  #queue: { item: EventToAppend; reset: boolean; fence: AppendFence | undefined }[] = [];
  #inflight: Promise<void> | undefined;
  #failure: { error: unknown } | undefined;

  constructor(id: string, store?: SessionStore) {
    this.id = id;
    this.#store = store;
  }

  get lastSeq(): number {
    return this.#seq;
  }

  /** Numbers an event (through the store, if any), records it and hands it to every listener. */
  emit(runId: string, event: UnsequencedStreamEvent, fence?: AppendFence): void {
    const reset = startsLog(event);
    if (!this.#store) {
      this.#deliver([{ ...event, seq: this.#seq + 1, runId, sessionId: this.id } as AgentStreamEvent], reset);
      if (endsLeg(event)) this.#compact();
      return;
    }
    this.#queue.push({ item: { runId, event }, reset, fence });
    if (!this.#inflight) this.#drain();
  }

  /**
   * Numbers an event here and hands it to the local listeners without storing it: for a run that
   * lost the session to another one, whose events must not land in the shared log.
   */
  emitLocal(runId: string, event: UnsequencedStreamEvent): void {
    this.#deliver([{ ...event, seq: this.#seq + 1, runId, sessionId: this.id } as AgentStreamEvent], startsLog(event));
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
    const store = this.#store!;
    while (this.#queue.length > 0) {
      // One store call per batch; a log reset only ever starts a batch.
      const fence = this.#queue[0]!.fence;
      let n = 1;
      while (n < this.#queue.length && !this.#queue[n]!.reset && this.#queue[n]!.fence === fence) n++;
      const batch = this.#queue.splice(0, n);
      const reset = batch[0]!.reset;
      const options = reset || fence ? { ...(reset ? { resetLog: true } : {}), ...(fence ? { holder: fence.holder } : {}) } : undefined;
      let answer: AgentStreamEvent[] | Promise<AgentStreamEvent[]>;
      try {
        answer = store.appendEvents(this.id, batch.map((b) => b.item), options);
      } catch (error) {
        this.#fail(error, batch, reset);
        continue;
      }
      if (isPromise(answer)) {
        const inflight: Promise<void> = answer
          .then(
            (numbered) => this.#delivered(numbered, reset),
            (error: unknown) => this.#fail(error, batch, reset),
          )
          .finally(() => {
            if (this.#inflight === inflight) this.#inflight = undefined;
            this.#drain();
          });
        this.#inflight = inflight;
        return;
      }
      this.#delivered(answer, reset);
    }
  }

  /** Stored events are delivered; a leg that ended gets its log compacted, here and in the store. */
  #delivered(numbered: readonly AgentStreamEvent[], reset: boolean): void {
    this.#deliver(numbered, reset);
    const last = numbered[numbered.length - 1];
    if (!last || !endsLeg(last)) return;
    const store = this.#store!;
    try {
      const done = store.compactEvents?.(this.id, last.seq);
      if (isPromise(done)) done.catch(() => {});
      else if (done === undefined && store.compactEvents && this.#adoptStoredLog(store)) return;
    } catch {
      // Compaction only saves space: a store that fails at it still has the full log.
    }
    this.#compact();
  }

  /**
   * After a synchronous store compacted its log, takes the store's events as this log (for the
   * memory store, the very same objects): the merged reply is then kept once, not twice.
   */
  #adoptStoredLog(store: SessionStore): boolean {
    const first = this.#log[0];
    if (!first) return false;
    const stored = store.eventsAfter(this.id, first.seq - 1);
    if (isPromise(stored) || stored.at(-1)?.seq !== this.#seq) return false;
    this.#log = stored;
    return true;
  }

  /**
   * A finished leg's deltas are merged (see `compactEventLog`): a late client resuming inside a
   * merged reply gets a gap and re-reads the session; everyone else replays the same state.
   */
  #compact(): void {
    const compacted = compactEventLog(this.#log);
    if (compacted !== this.#log) this.#log = compacted as AgentStreamEvent[];
  }

  /** The store refused: the events still reach local listeners (numbered here), and the run learns of it. */
  #fail(error: unknown, batch: { item: EventToAppend; fence: AppendFence | undefined }[], reset: boolean): void {
    if ((error as { code?: unknown } | null)?.code === 'LOUSHO_SESSION_LEASE_LOST' && batch[0]?.fence) batch[0].fence.onLost();
    this.#failure ??= { error };
    this.#deliver(
      batch.map((b, i) => ({ ...b.item.event, seq: this.#seq + 1 + i, runId: b.item.runId, sessionId: this.id }) as AgentStreamEvent),
      reset,
    );
  }

  #deliver(numbered: readonly AgentStreamEvent[], reset: boolean): void {
    if (reset) this.#log = [];
    for (const event of numbered) {
      this.#seq = event.seq;
      this.#log.push(event);
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch {
          // A listener's failure must not break the run or the other listeners.
        }
      }
    }
  }

  /**
   * Delivers events another process appended to the store (read back with `eventsAfter`, in their
   * stored form) to this process's listeners, as if they had been emitted here: only those after
   * `lastSeq`, a merged delta cut where it overlaps (`replayAfter`), never a `pieceSizes`. Ignored
   * while a run of this process works on the session (its own events are delivered as emitted).
   */
  receiveStored(events: readonly AgentStreamEvent[]): void {
    if (this.active) return;
    for (const event of replayAfter(events, this.#seq)) {
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
      }
      this.#deliver([event], startsLog(event));
    }
  }

  /** True while someone in this process follows the session. */
  get followed(): boolean {
    return this.#listeners.size > 0;
  }

  /** Takes over what a store holds (a session this process has not seen, or one another process changed). */
  hydrate(state: HydratedSession): void {
    // Listeners following the session get what they have not seen yet (it was appended elsewhere).
    const missed = this.#listeners.size > 0 && this.#seq > 0 ? replayAfter(state.events, this.#seq) : [];
    this.stale = false;
    this.owner = state.owner;
    this.status = state.status;
    this.pendingApproval = state.pendingApproval;
    this.runStartIndex = state.runStartIndex;
    this.messages = state.messages;
    this.#log = state.events.slice();
    this.#seq = Math.max(state.lastSeq, this.#log.at(-1)?.seq ?? 0);
    for (const event of missed) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch {
          // As in #deliver: a listener's failure stays its own.
        }
      }
    }
  }

  /**
   * Events with `seq > afterSeq` still in the log (the log starts at the latest run); at most
   * `limit` of them, so a slow reader can page through a long log.
   */
  eventsAfter(afterSeq: number, limit = Infinity): AgentStreamEvent[] {
    const log = this.#log;
    // The log is ordered by seq: find the first index past afterSeq.
    let lo = 0;
    let hi = log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (log[mid]!.seq <= afterSeq) lo = mid + 1;
      else hi = mid;
    }
    return replayAfter(log.slice(lo, lo + limit), afterSeq);
  }

  /** The seq of the first event still replayable, or `lastSeq + 1` when the log is empty. */
  get firstReplayableSeq(): number {
    const first = this.#log[0] as (AgentStreamEvent & { fromSeq?: number }) | undefined;
    return first ? (first.fromSeq ?? first.seq) : this.#seq + 1;
  }

  subscribe(listener: SessionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
