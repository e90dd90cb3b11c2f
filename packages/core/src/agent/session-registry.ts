import { endsLeg } from '@lousho/protocol';
import type { PendingApprovalInfo, AgentStreamEvent } from '@lousho/protocol';
import type { StoredCheckpoint, SessionRecord, SessionStatus } from '@lousho/protocol';
import type { AgentStores } from './agent-stores.js';
import type { AgentSessions, SessionState } from '@lousho/protocol';
import { closeAbandonedLeg, lastLegOpen } from './interrupted-leg.js';
import { leaseStateOf } from './lease-state.js';
import { RemoteFollower } from './remote-follow.js';
import { SessionRuntime } from './session-runtime.js';
import { SessionThreads } from './session-threads.js';

/**
 * The sessions an agent knows in this process (`agent.sessions`): their runtimes, brought up to date
 * with the store on demand, followed across processes when the store has signals.
 */
export class SessionRegistry {
  readonly sessions = new Map<string, SessionRuntime>();
  readonly followers = new Map<string, RemoteFollower>();

  constructor(readonly stores: AgentStores) {
    // A session the store forgot on its own (memoryStore's bound) is forgotten here too, unless a
    // run of this process works on it.
    stores.sessionStore.onEvict?.((id) => {
      const local = this.sessions.get(id);
      if (local && !local.active && local.status !== 'running') this.sessions.delete(id);
    });
  }

  /** Listens for stop requests: from any process, they reach the one running the turn (the others ignore it). */
  listenForStops(): void {
    this.stores.signals?.onStopRequest((id) => void this.stopLocal(id));
  }

  sessionFor(id: string): SessionRuntime {
    let session = this.sessions.get(id);
    if (!session) this.sessions.set(id, (session = new SessionRuntime(id, this.stores.sessionStore)));
    return session;
  }

  /** Aborts the session's turn if it runs in this process. */
  stopLocal(id: string): boolean {
    const s = this.sessions.get(id);
    if (!s?.abortController || s.status !== 'running') return false;
    s.abortController.abort();
    return true;
  }

  /** Brings the session's runtime up to date with the store (unless a run is going on here). */
  async load(id: string): Promise<SessionState | undefined> {
    const { sessionStore, checkpointStore } = this.stores;
    const record = await sessionStore.get(id);
    const local = this.sessions.get(id);
    if (!record) return local && stateOf(local);
    // Up to date (nothing appended since), unless it shows another process's run, whose lease may have
    // run out, or followed one (`stale`: its events came, its transcript did not).
    if (local && (local.active || (local.lastSeq === record.lastSeq && local.version > 0 && local.status !== 'running' && !local.stale))) {
      local.owner = record.owner;
      return stateOf(local);
    }
    const version = local?.version ?? 0;
    const [checkpoint, events] = await Promise.all([checkpointStore.load(id), sessionStore.eventsAfter(id, 0)]);
    // The record was read before the log. When it says running but the log ends a leg, that leg
    // may have ended (and its process stored the end) in between: read the record again, or a
    // follower would wait for the end of a leg whose end it already has.
    const lastEvent = events.at(-1);
    const current = record.status === 'running' && lastEvent && endsLeg(lastEvent) ? ((await sessionStore.get(id)) ?? record) : record;
    const runtime = this.sessionFor(id);
    // A run started here while we were reading: its state is newer than what we read.
    if (runtime.active || runtime.version !== version) return stateOf(runtime);
    const { status, pendingApproval } = await this.storedStatus(current, checkpoint, lastEvent);
    runtime.hydrate({
      ...(record.owner !== undefined ? { owner: record.owner } : {}),
      status,
      pendingApproval: status === 'awaiting-approval' ? pendingApproval : null,
      runStartIndex: Math.min(record.runStartIndex, checkpoint?.messages.length ?? 0),
      lastSeq: record.lastSeq,
      messages: checkpoint?.messages ?? [],
      events,
    });
    runtime.version = Math.max(runtime.version, 1);
    // A leg nobody runs any more (its lease is gone) whose end is not in the log: its process died
    // (or lost its store). Ended in the log now (`run.interrupted` for a run cut off), so what this
    // load returns, and what followers anywhere see, says so without anybody sending anything.
    if (!checkpoint?.leased && lastLegOpen(events)) await closeAbandonedLeg(runtime, sessionStore, checkpointStore, this.stores.approvalStore);
    return stateOf(runtime);
  }

  /** Where a session stands, from its record, its checkpoint (paused? leased?) and its log's last event. */
  async storedStatus(
    record: SessionRecord,
    checkpoint: StoredCheckpoint | undefined,
    lastEvent: AgentStreamEvent | undefined,
  ): Promise<{ status: SessionStatus; pendingApproval: PendingApprovalInfo | null }> {
    let status = record.status;
    let pendingApproval = record.pendingApproval;
    const run = checkpoint?.run;
    if (run?.state === 'paused' && run.paused) {
      // Paused, unless the approval was decided and only its continuation is missing (resume() runs it).
      const approval = await this.stores.approvalStore.get(run.paused.approval.approvalId);
      const decided = approval !== undefined && approval.status === 'resolved';
      status = decided ? 'idle' : 'awaiting-approval';
      pendingApproval ??= run.paused.approval;
    } else if ((status === 'running' || status === 'interrupted') && !checkpoint?.leased) {
      // No process runs it: a run cut off (its process died, or lost the store) waits for resume()
      // or the next message; a run whose end was stored (only the record lagged) is over.
      status = run?.state === 'running' ? 'interrupted' : 'idle';
    } else if (status === 'interrupted') {
      // Leased: someone is resuming it right now.
      status = 'running';
    } else if (status === 'awaiting-approval' && !pendingApproval) {
      status = 'idle';
    }
    // With signals: the process running the leg stored its end, but its last events (`run.done`,
    // `approval.requested`) are still on their way. Shown as running, so a follower waits for them.
    if (this.stores.signals && checkpoint?.leased && status !== 'running' && lastEvent && !endsLeg(lastEvent)) {
      status = 'running';
      pendingApproval = null;
    }
    return { status, pendingApproval };
  }

  /** `agent.sessions`. */
  /** Forgets a session about to be deleted; false (and kept) while a turn of it runs here. */
  forgetLocal(id: string): boolean {
    const local = this.sessions.get(id);
    if (local && (local.active || local.status === 'running')) return false;
    this.sessions.delete(id);
    return true;
  }

  api(): AgentSessions {
    const threads = new SessionThreads(
      this.stores,
      (id) => this.forgetLocal(id),
      (id) => this.sessions.get(id)?.status,
    );
    return {
      get: (id) => {
        const s = this.sessions.get(id);
        return s && stateOf(s);
      },
      eventsAfter: (id, afterSeq, limit) => this.sessions.get(id)?.eventsAfter(afterSeq, limit) ?? [],
      subscribe: (id, listener) => this.subscribe(id, listener),
      stop: (id) => this.stopLocal(id),
      requestStop: (id) => this.requestStop(id),
      load: (id) => this.load(id),
      create: async (id, options = {}) => {
        const { created, record } = await this.stores.sessionStore.create(id, options.owner !== undefined ? { owner: options.owner } : {});
        const local = this.sessions.get(id);
        if (local) local.owner = record.owner;
        return created;
      },
      list: (options) => threads.list(options),
      rename: (id, title, options) => threads.rename(id, title, options),
      delete: (id, options) => threads.delete(id, options),
    };
  }

  subscribe(id: string, listener: (event: AgentStreamEvent) => void): () => void {
    const { signals, sessionStore, checkpointStore, approvalStore } = this.stores;
    const session = this.sessionFor(id);
    const unsubscribe = session.subscribe(listener);
    if (!signals) return unsubscribe;
    // With signals, a subscriber also sees the runs of other processes (see RemoteFollower).
    let follower = this.followers.get(id);
    if (!follower) {
      const lease = { state: () => leaseStateOf(checkpointStore, id), closeAbandoned: () => closeAbandonedLeg(session, sessionStore, checkpointStore, approvalStore) };
      this.followers.set(id, (follower = new RemoteFollower(session, sessionStore, signals, lease)));
    }
    const unfollow = follower.add();
    return () => {
      unsubscribe();
      unfollow();
      if (!follower.used && this.followers.get(id) === follower) this.followers.delete(id);
    };
  }

  async requestStop(id: string): Promise<boolean> {
    if (this.stopLocal(id)) return true;
    const signals = this.stores.signals;
    if (!signals) return false;
    // Running elsewhere? The store says so while that process holds the lease.
    const state = await this.load(id);
    if (state?.status !== 'running') return false;
    if (this.stopLocal(id)) return true;
    await signals.requestStop(id);
    return true;
  }
}

/** What `agent.sessions.get()` returns of a session's runtime. */
export function stateOf(s: SessionRuntime): SessionState {
  return {
    id: s.id,
    messages: s.messages,
    status: s.status,
    pendingApproval: s.pendingApproval,
    lastSeq: s.lastSeq,
    runStartIndex: s.runStartIndex ?? s.messages.length,
    ...(s.owner !== undefined ? { owner: s.owner } : {}),
  };
}
