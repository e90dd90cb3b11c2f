import type { AgentStreamEvent, FinishReason, PendingApprovalInfo, SerializedError, UnsequencedStreamEvent } from './events.js';
import type { Message } from './messages.js';
import type { RunUsage, StepUsage } from './usage.js';
import type { ChildSnapshot, PausedBatch, RunConfigContext, RunSnapshot, ToolCallRecord } from './run-snapshot.js';
import type { SpanRef } from './tracing.js';

/**
 * Every store method may answer synchronously (memory, SQLite) or with a Promise (a networked
 * store). Callers always treat the answer as possibly async; synchronous answers keep the hot path
 * free of extra ticks.
 */
export type MaybePromise<T> = T | Promise<T>;

// ---------------------------------------------------------------------------------------------
// Sessions: one record per conversation, plus its numbered event log.
// ---------------------------------------------------------------------------------------------

/** What a store keeps about a session (the transcript lives with the checkpoints). */
export interface SessionRecord {
  id: string;
  /** The principal that owns it (the HTTP handler's `authorize()` result), if any. */
  owner?: string;
  status: SessionStatus;
  pendingApproval: PendingApprovalInfo | null;
  /**
   * How many transcript messages came before the session's event log: 0 for a session whose every
   * run was logged; more for a session whose older runs were logged by a version that kept only
   * the latest run's events (see `SessionState.runStartIndex`).
   */
  runStartIndex: number;
  /** The seq of the newest event appended (0 before the first). */
  lastSeq: number;
  /** Milliseconds since the epoch, by the store's clock. */
  createdAt: number;
  updatedAt: number;
  /**
   * The session's title, for a thread list: the first user message (trimmed, whitespace collapsed,
   * at most `SESSION_TITLE_MAX_LENGTH` characters) unless set with `SessionStore.rename()`. Absent
   * before the first user message, and in stores without titles.
   */
  title?: string;
  /**
   * The tokens (and cost) of every run of the session so far, counted from the `run.done` events
   * appended to its log (a continuation's counted once with its run). Absent before a run ended,
   * and in stores that do not count usage.
   */
  usage?: SessionUsage;
}

/** A session's usage in a thread list: every run's tokens, and their cost while every model used is priced. */
export interface SessionUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** In US dollars; absent as soon as one run used a model with no known price. */
  costUsd?: number;
}

/** What `SessionStore.listPage()` is asked for. */
export interface SessionPageQuery {
  /** Only this principal's sessions; without it, every session. */
  owner?: string;
  /** The `nextCursor` of the previous page; without it, the first page. */
  cursor?: string;
  /** The most sessions in the page (1 to 100). */
  limit: number;
}

/** One page of sessions, newest activity (`updatedAt`) first. */
export interface SessionPage {
  sessions: SessionRecord[];
  /** Where the next page starts; absent on the last page. */
  nextCursor?: string;
}

/** The fields of a session record that `SessionStore.update()` changes. */
export type SessionPatch = Partial<Pick<SessionRecord, 'status' | 'pendingApproval' | 'runStartIndex'>>;

/** One event to append: the store numbers it (`seq`) and stamps `runId` / `sessionId`. */
export interface EventToAppend {
  runId: string;
  event: UnsequencedStreamEvent;
}

/** Where sessions and their event logs live (memory, SQLite, PostgreSQL, IndexedDB). Implement it to keep sessions elsewhere; `storeContract` tests describe what each method must do. */
export interface SessionStore {
  /** The session record, or undefined when the store does not know it. */
  get(id: string): MaybePromise<SessionRecord | undefined>;
  /**
   * Creates the session unless it exists, in one atomic step; `created` says which happened.
   * The record returned is the stored one either way (so an owner check can follow).
   */
  create(id: string, init?: { owner?: string }): MaybePromise<{ created: boolean; record: SessionRecord }>;
  /** Changes the record, creating it (with no owner) if it does not exist yet. */
  update(id: string, patch: SessionPatch): MaybePromise<void>;
  /** Sessions, oldest first; `owner` filters by principal. */
  list(filter?: { owner?: string }): MaybePromise<SessionRecord[]>;
  /** Removes the session, its event log and (for a combined store) nothing else. */
  delete(id: string): MaybePromise<void>;
  /**
   * One page of sessions for a thread list, newest activity first (`updatedAt` descending, then
   * `id` descending). The cursor is a position (the last session's `updatedAt` and `id`), not an
   * offset, so sessions created while a user pages never shift or repeat the pages after it; a
   * cursor the store did not write is `LOUSHO_SESSION_CURSOR_INVALID`. SQL stores answer it with an
   * index range scan on `(owner, updated_at, id)`. Optional: a store without it cannot list threads
   * (the HTTP route then answers 501).
   */
  listPage?(query: SessionPageQuery): MaybePromise<SessionPage>;
  /**
   * Sets the session's title (already checked: trimmed, 1 to `SESSION_TITLE_MAX_LENGTH`
   * characters). Does not count as activity: `updatedAt` stays. `LOUSHO_SESSION_NOT_FOUND` for a
   * session the store does not know. Optional, like `listPage`.
   */
  rename?(id: string, title: string): MaybePromise<void>;
  /**
   * Appends events to the session's log in the given order and returns them numbered: the store
   * assigns `seq` (`lastSeq + 1`, `+ 2`, ...), which is what makes numbers unique even when several
   * processes share the store. The log keeps every run of the session (compacted, see
   * `compactEvents`): it is what rebuilds the session's UI state. Creates the session record if needed.
   *
   * `holder` is the appending run's lease holder (see `CheckpointStore.acquire`). A store that keeps
   * leases too (memory, SQLite) refuses, with `LOUSHO_SESSION_LEASE_LOST` and without appending, the
   * events of a run that no longer holds the session: a run that was taken over cannot write into
   * the log of the run that took over. A store without leases may ignore it.
   */
  appendEvents(id: string, events: readonly EventToAppend[], options?: { holder?: string }): MaybePromise<AgentStreamEvent[]>;
  /**
   * Logged events with `seq > afterSeq`, in seq order, in their stored form: a merged delta of a
   * compacted leg (see `compactEventLog`) comes whole, with its `fromSeq` and piece sizes, even
   * when `afterSeq` falls inside it. `replayAfter()` turns them into what a client is sent.
   */
  eventsAfter(id: string, afterSeq: number): MaybePromise<AgentStreamEvent[]>;
  /**
   * Replaces the logged events with `fromSeq <= seq <= throughSeq` by `compactEventLog()` of them,
   * in one atomic step (the agent calls it when a run leg has ended, with the leg's first event as
   * `fromSeq`, so the deltas of a finished reply stop costing memory or rows, and the work does not
   * grow with the session's older runs). Without `fromSeq`, from the start of the log. Events
   * after `throughSeq` are left alone. Optional: a store without it keeps every event.
   */
  compactEvents?(id: string, throughSeq: number, fromSeq?: number): MaybePromise<void>;
  /**
   * Optional, for a store that forgets sessions on its own (`memoryStore()`'s `maxSessions` and
   * `idleTtlMs`): calls `listener` with each forgotten session's id, so the agent drops its copy
   * too. Returns the unsubscribe function.
   */
  onEvict?(listener: (id: string) => void): () => void;
}

// ---------------------------------------------------------------------------------------------
// Checkpoints: the transcript and the latest run's state, written append-only, under a lease.
// ---------------------------------------------------------------------------------------------

/** Where the latest run of a session stands. */
export type RunState = 'running' | 'paused' | 'done';

/** The fields of a run that are fixed when it starts. */
export interface RunStart {
  runId: string;
  model: string;
  configContext: RunConfigContext;
  /** Index in the transcript where this run's own messages start. */
  runStart: number;
}

/** The fields of a run that change as it goes (small, rewritten at every checkpoint). */
export interface RunProgress {
  state: RunState;
  steps: number;
  usage: RunUsage;
  repairUsed?: boolean;
  paused?: PausedBatch;
  /** Sub-agents of the current tool batch (see `RunSnapshot.children`). */
  children?: Record<string, ChildSnapshot>;
  /** See `RunSnapshot.pendingInput`. */
  pendingInput?: Message[];
  /** See `RunSnapshot.budgetFrom`. */
  budgetFrom?: number;
  /**
   * The session log's last `seq` when the checkpoint was written: every event up to it is in the
   * log, and what a leg logged after it is not covered by the checkpoint (see `run.interrupted`).
   */
  seq?: number;
  /** How a `done` run ended, so a leg whose last events were lost can be ended in the log: its `run.done` reason... */
  finishReason?: FinishReason;
  /** ... or its `error`. */
  error?: SerializedError;
  /** With tracing: the span of the run's latest leg, which a leg resumed after a crash links to. */
  traceSpan?: SpanRef;
}

/** A list written append-only: keep the first `keep` stored items, drop the rest, add `append`. */
export interface ListWrite<T> {
  keep: number;
  append: readonly T[];
}

/**
 * One checkpoint: only what changed since the previous one, so a step costs the same at step 200
 * as at step 10. `keep` below the stored length means something earlier was edited (e.g. pruned).
 */
export interface CheckpointWrite {
  /** The lease holder writing: a store refuses writes from anyone else (fencing). */
  holder: string;
  messages: ListWrite<Message>;
  run: {
    /** Present on the first write of a run: replaces the previous run's state. */
    start?: RunStart;
    progress: RunProgress;
    stepUsage: ListWrite<StepUsage>;
    toolCalls: ListWrite<ToolCallRecord>;
  };
}

/** The latest run of a session as stored. */
export interface StoredRun extends RunStart, RunProgress {
  stepUsage: StepUsage[];
  toolCalls: ToolCallRecord[];
}

/** A session's durable conversation state: what `execute()` / `send()` continues from. */
export interface StoredCheckpoint {
  sessionId: string;
  /** The whole transcript (no system prompt). */
  messages: Message[];
  run?: StoredRun;
  /** True while someone holds an unexpired lease on the session (a run is going somewhere). */
  leased: boolean;
}

/** What `CheckpointStore.acquire()` answers: the lease with the stored checkpoint, or `acquired: false` while another holder's lease runs. */
export type LeaseResult = { acquired: true; checkpoint: StoredCheckpoint | undefined } | { acquired: false };

/** Whether a session's lease is held now, and where its latest run stands: `leaseState()`. */
export interface LeaseState {
  leased: boolean;
  /** The latest run's state; undefined before its first checkpoint. */
  run?: RunState;
}

/** Where a run's checkpoints live: the transcript and the run's progress, written under a lease so one run at a time works on a session. What makes runs crash-safe and resumable. */
export interface CheckpointStore {
  /**
   * How long a lease lasts without renewal, in ms. The holder renews it well before that; a holder
   * that crashed loses it when it runs out, and then another run may take the session over.
   */
  readonly leaseMs: number;
  /**
   * Takes the session's lease for `holder` in one atomic step and returns the stored state with it.
   * Fails (`acquired: false`) while another holder's lease is unexpired, unless `force` (taking over
   * after a crash: the old holder's next write is then refused).
   */
  acquire(sessionId: string, holder: string, options?: { force?: boolean }): MaybePromise<LeaseResult>;
  /** Extends the lease; false when `holder` no longer holds it. */
  renew(sessionId: string, holder: string): MaybePromise<boolean>;
  /** Gives the lease up (no-op if `holder` does not hold it). */
  release(sessionId: string, holder: string): MaybePromise<void>;
  /**
   * Writes a checkpoint in one atomic step. Throws a `LOUSHO_SESSION_LEASE_LOST` error (and writes
   * nothing) when `write.holder` does not hold the lease.
   */
  save(sessionId: string, write: CheckpointWrite): MaybePromise<void>;
  /** The session's stored transcript and run state, or undefined before its first checkpoint. */
  load(sessionId: string): MaybePromise<StoredCheckpoint | undefined>;
  /**
   * The lease and the run's state alone, without the transcript: what a process following a run of
   * another process reads now and then to notice that the run was cut off (its lease ran out while
   * it was `running`). Undefined for a session without a checkpoint. Optional: without it, `load()`
   * is used.
   */
  leaseState?(sessionId: string): MaybePromise<LeaseState | undefined>;
  /** Forgets the session's checkpoint, transcript and lease. */
  delete(sessionId: string): MaybePromise<void>;
}

// ---------------------------------------------------------------------------------------------
// The store as a whole.
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Signals between processes (optional): for stores shared by several server processes.
// ---------------------------------------------------------------------------------------------

/**
 * How processes sharing a store tell each other about a session, through the store itself (e.g.
 * PostgreSQL `LISTEN/NOTIFY`). Optional: a store used by one process (memory, SQLite in one
 * process) leaves it out, and the agent then only sees its own runs live. With it, the agent
 *   - follows a run of another process: a subscriber to a session that runs elsewhere gets the
 *     events that process appends (read back with `sessions.eventsAfter`, in seq order, no gap,
 *     no duplicate), and
 *   - reaches a run of another process with `sessions.requestStop(id)`.
 * Signals are hints, never data: a lost notification costs a delay, not an event, because the
 * receiver always reads the store (and `watch` is called again after a reconnect).
 */
export interface StoreSignals {
  /**
   * Calls `changed` whenever events may have been appended to session `id` (by any process),
   * until the returned function is called. Also called after the signal connection was lost and
   * came back (notifications may have been missed meanwhile). Registering is local: no round trip.
   */
  watch(id: string, changed: () => void): () => void;
  /** Asks every process sharing the store to stop session `id`'s running turn (the one running it does). */
  requestStop(id: string): MaybePromise<void>;
  /** Calls `stop` with the session id of every stop request, from any process, until unsubscribed. */
  onStopRequest(stop: (id: string) => void): () => void;
}

/**
 * The `createAgent({ store })` option: where sessions, checkpoints and approvals live. Each part is
 * optional; a missing one is kept in memory. `memoryStore()` and `SqliteStore` provide all three;
 * `PostgresStore` (from `/postgres`) also provides `signals`.
 */
export interface AgentStore {
  sessions?: SessionStore;
  checkpoints?: CheckpointStore;
  approvals?: ApprovalStore;
  /** Cross-process signals (see `StoreSignals`); only used together with this store's `sessions`. */
  signals?: StoreSignals;
}

/** A store that provides every part. */
export interface CompleteAgentStore extends AgentStore {
  sessions: SessionStore;
  checkpoints: CheckpointStore;
  approvals: ApprovalStore;
}

/** Where an approval stands: `pending` (waiting for a person), `resolving` (claimed, its continuation starting) or `resolved`. */
export type ApprovalStatus = 'pending' | 'resolving' | 'resolved';

/** A paused call and the run it belongs to, as an approval store keeps it. */
export interface ApprovalRecord extends PendingApprovalInfo {
  sessionId: string;
  runId: string;
  status: ApprovalStatus;
  createdAt: number;
  /** The paused run: enough to continue it, even from another process. */
  snapshot: RunSnapshot;
  /** `result` / `error`: what the browser sent for a `client` call (`result` already checked against the tool's `outputSchema`). */
  decision?: { approved: boolean; note?: string; answer?: string; result?: unknown; error?: string };
}

/**
 * Where paused approvals live. `claim()` is the one atomic step: it moves a record from `pending`
 * to `resolving` and returns it, so two concurrent resolutions run the tool once.
 */
export interface ApprovalStore {
  /** Stores (or replaces) the record of a paused call. */
  save(record: ApprovalRecord): Promise<void> | void;
  /** The record with this approval id, or undefined. */
  get(id: string): Promise<ApprovalRecord | undefined> | ApprovalRecord | undefined;
  /** Records, oldest first, optionally of one session and / or one status. */
  list(filter?: { sessionId?: string; status?: ApprovalStatus }): Promise<ApprovalRecord[]> | ApprovalRecord[];
  /** Atomically take a pending record; `undefined` when it is unknown or not pending. */
  claim(id: string): Promise<ApprovalRecord | undefined> | ApprovalRecord | undefined;
  /** Mark a claimed record resolved with its decision. */
  complete(id: string, decision: NonNullable<ApprovalRecord['decision']>): Promise<void> | void;
  /** Put a claimed record back to pending (the continuation could not start). */
  release(id: string): Promise<void> | void;
  /** Removes every record of the session (a deleted thread). Optional: see `deleteSession()`. */
  deleteSession?(sessionId: string): Promise<void> | void;
}

/**
 * Where a session stands: `interrupted` means its latest run was cut off (its process died, or lost
 * its store) and no process runs it now; it waits for `agent.resume(id)` or the next message.
 */
export type SessionStatus = 'idle' | 'running' | 'awaiting-approval' | 'interrupted';
