import type { AgentStreamEvent } from '@lousho/protocol';
import { endsLeg } from '@lousho/protocol';
import { stampEvent } from '@lousho/protocol';
import type { Message } from '@lousho/protocol';
import type { StepUsage } from '@lousho/protocol';
import { InMemoryApprovalStore } from './approval-store.js';
import type { ToolCallRecord } from '@lousho/protocol';
import { SessionLeaseLostError, missingRunStartError } from '@lousho/store-kit';
import { compactEventLog } from '@lousho/store-kit';
import { pageFromAll, sessionNotFoundError, titleFromEvents } from '@lousho/store-kit';
import { tallyUsage, usageOfTally, type SessionUsageTally } from '@lousho/store-kit';
import { retentionLimit, SessionRetention } from '@lousho/store-kit';
import type {
  CheckpointStore,
  CheckpointWrite,
  CompleteAgentStore,
  EventToAppend,
  LeaseResult,
  LeaseState,
  ListWrite,
  RunProgress,
  RunStart,
  SessionPage,
  SessionPageQuery,
  SessionPatch,
  SessionRecord,
  SessionStore,
  StoredCheckpoint,
} from '@lousho/protocol';

/** Options of `memoryStore()`: lease length and how many sessions it keeps. */
export interface MemoryStoreOptions {
  /** How long a run's lease on a session lasts without renewal (default 30,000 ms). */
  leaseMs?: number;
  /**
   * The most sessions kept (default 1,000; `Infinity` keeps all). Past it, the least recently used
   * finished session is forgotten: its record, event log, transcript and approvals. A session with
   * a run going on or paused for an approval is never forgotten.
   */
  maxSessions?: number;
  /** A finished session unused for this long is forgotten too (default: never, whatever its age). */
  idleTtlMs?: number;
}

/** How long a run's lease on a session lasts without renewal when a store is given no `leaseMs` (30 s). */
export const DEFAULT_LEASE_MS = 30_000;
/** `memoryStore()`'s default `maxSessions`. */
export const DEFAULT_MAX_SESSIONS = 1000;

function newRecord(id: string, now: number, owner?: string): SessionRecord {
  return { id, ...(owner !== undefined ? { owner } : {}), status: 'idle', pendingApproval: null, runStartIndex: 0, lastSeq: 0, createdAt: now, updatedAt: now };
}

/** The index of the first event of an ordered log with `seq > afterSeq`. */
export function indexAfter(log: readonly AgentStreamEvent[], afterSeq: number): number {
  let lo = 0;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (log[mid]!.seq <= afterSeq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Sessions and their event logs in a Map. Records are copied in and out; events are plain JSON. */
export class MemorySessionStore implements SessionStore {
  readonly #records = new Map<string, SessionRecord>();
  readonly #logs = new Map<string, AgentStreamEvent[]>();
  /** How each session's usage is counted (its record shows the total). */
  readonly #usage = new Map<string, SessionUsageTally>();
  readonly #leaseHolder: ((id: string) => string | undefined) | undefined;
  readonly #retention: SessionRetention | undefined;

  /**
   * `leaseHolder`: who holds a session's lease (the checkpoint store's view), to fence appends.
   * `retention`: which sessions to keep (`memoryStore()` shares one between its parts); without
   * it, every session is kept.
   */
  constructor(leaseHolder?: (id: string) => string | undefined, retention?: SessionRetention) {
    this.#leaseHolder = leaseHolder;
    this.#retention = retention;
  }

  /** Counts a use of `id` for the retention (when it exists, or is being created). */
  #use(id: string, creating = false): void {
    const retention = this.#retention;
    if (!retention) return;
    retention.sweep();
    if (creating || retention.has(id)) retention.touch(id);
  }

  /** The session record, or undefined when this store does not know it. */
  get(id: string): SessionRecord | undefined {
    this.#use(id);
    const record = this.#records.get(id);
    return record && { ...record };
  }

  /** The session's status, without counting as a use. */
  statusOf(id: string): SessionRecord['status'] | undefined {
    return this.#records.get(id)?.status;
  }

  /**
   * Calls `listener` with the id of each session the store forgets on its own (its `maxSessions` /
   * `idleTtlMs` bound), so a cache of sessions (the agent's) forgets it too.
   */
  onEvict(listener: (id: string) => void): () => void {
    return this.#retention?.onForget(listener) ?? (() => {});
  }

  create(id: string, init: { owner?: string } = {}): { created: boolean; record: SessionRecord } {
    this.#use(id, true);
    const existing = this.#records.get(id);
    if (existing) return { created: false, record: { ...existing } };
    const record = newRecord(id, Date.now(), init.owner);
    this.#records.set(id, record);
    return { created: true, record: { ...record } };
  }

  #ensure(id: string): SessionRecord {
    this.#use(id, true);
    let record = this.#records.get(id);
    if (!record) this.#records.set(id, (record = newRecord(id, Date.now())));
    return record;
  }

  update(id: string, patch: SessionPatch): void {
    const record = this.#ensure(id);
    Object.assign(record, patch, { updatedAt: Date.now() });
  }

  list(filter: { owner?: string } = {}): SessionRecord[] {
    const out: SessionRecord[] = [];
    for (const record of this.#records.values()) {
      if (filter.owner !== undefined && record.owner !== filter.owner) continue;
      out.push({ ...record });
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  delete(id: string): void {
    this.#records.delete(id);
    this.#logs.delete(id);
    this.#usage.delete(id);
  }

  listPage(query: SessionPageQuery): SessionPage {
    const page = pageFromAll(this.#records.values(), query);
    return { ...page, sessions: page.sessions.map((record) => ({ ...record })) };
  }

  rename(id: string, title: string): void {
    const record = this.#records.get(id);
    if (!record) throw sessionNotFoundError(id);
    record.title = title;
  }

  /** Whether the store has anything of session `id`, without counting as a use. */
  has(id: string): boolean {
    return this.#records.has(id) || this.#logs.has(id);
  }

  appendEvents(id: string, events: readonly EventToAppend[], options?: { holder?: string }): AgentStreamEvent[] {
    const holder = options?.holder;
    if (holder !== undefined && this.#leaseHolder && this.#leaseHolder(id) !== holder) throw new SessionLeaseLostError(id);
    // A leg's events count as one use of the session, at its end (and at the first, which may
    // create it): a use per event moved the session in the retention's order on every event, about
    // 230 ns each with 1,000 sessions streaming at once, and a session with a run going on is kept anyway.
    const known = this.#records.get(id);
    const record = known ?? this.#ensure(id);
    let log = this.#logs.get(id);
    if (!log) this.#logs.set(id, (log = []));
    const numbered: AgentStreamEvent[] = [];
    let ended = false;
    for (const { runId, event } of events) {
      const stamped = stampEvent(event, ++record.lastSeq, runId, id);
      log.push(stamped);
      numbered.push(stamped);
      ended ||= endsLeg(event);
    }
    if (known && ended) this.#use(id);
    if (record.title === undefined) {
      const title = titleFromEvents(events);
      if (title !== undefined) record.title = title;
    }
    const tally = this.#usage.get(id);
    const tallied = tallyUsage(tally, events);
    if (tallied !== tally) {
      this.#usage.set(id, tallied!);
      record.usage = usageOfTally(tallied)!;
    }
    record.updatedAt = Date.now();
    return numbered;
  }

  eventsAfter(id: string, afterSeq: number): AgentStreamEvent[] {
    this.#use(id);
    const log = this.#logs.get(id) ?? [];
    return log.slice(indexAfter(log, afterSeq));
  }

  compactEvents(id: string, throughSeq: number, fromSeq = 0): void {
    this.#use(id);
    const log = this.#logs.get(id);
    if (!log) return;
    const start = indexAfter(log, fromSeq - 1);
    const end = indexAfter(log, throughSeq);
    const range = log.slice(start, end);
    const compacted = compactEventLog(range);
    if (compacted === range) return;
    // A new array: one spliced in place would keep the capacity of every delta it once held.
    this.#logs.set(id, log.slice(0, start).concat(compacted, log.slice(end)));
  }
}

interface CheckpointEntry {
  messages: Message[];
  run?: { start: RunStart; progress: RunProgress; stepUsage: StepUsage[]; toolCalls: ToolCallRecord[] } | undefined;
  /** Set to undefined when released, never deleted: a `delete` turns the entry into a dictionary (about 300 B per session). */
  lease?: { holder: string; expiresAt: number } | undefined;
}

function applyList<T>(list: T[], write: ListWrite<T>): void {
  if (write.keep < list.length) list.length = write.keep;
  for (const item of write.append) list.push(item);
}

/**
 * Checkpoints in a Map. Messages are kept by reference (the loop freezes them), so a checkpoint
 * costs a few pushes, whatever the length of the transcript.
 */
export class MemoryCheckpointStore implements CheckpointStore {
  readonly leaseMs: number;
  readonly #entries = new Map<string, CheckpointEntry>();
  readonly #retention: SessionRetention | undefined;

  /** `retention`: as for `MemorySessionStore` (shared by `memoryStore()`'s parts). */
  constructor(options: Pick<MemoryStoreOptions, 'leaseMs'> = {}, retention?: SessionRetention) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#retention = retention;
  }

  #use(id: string, creating = false): void {
    const retention = this.#retention;
    if (!retention) return;
    retention.sweep();
    if (creating || retention.has(id)) retention.touch(id);
  }

  /**
   * True while the session must be kept: a lease is held (a run is going on) or its latest run is
   * unfinished (running, or paused for an approval). Does not count as a use.
   */
  isPinned(sessionId: string, now = Date.now()): boolean {
    const entry = this.#entries.get(sessionId);
    if (!entry) return false;
    if (entry.lease && entry.lease.expiresAt > now) return true;
    const state = entry.run?.progress.state;
    return state === 'running' || state === 'paused';
  }

  /** Whether a checkpoint of `sessionId` is kept, without counting as a use. */
  has(sessionId: string): boolean {
    return this.#entries.has(sessionId);
  }

  #view(sessionId: string, entry: CheckpointEntry, now: number): StoredCheckpoint {
    const run = entry.run;
    return {
      sessionId,
      messages: entry.messages.slice(),
      ...(run ? { run: { ...run.start, ...run.progress, stepUsage: run.stepUsage.slice(), toolCalls: run.toolCalls.slice() } } : {}),
      leased: entry.lease !== undefined && entry.lease.expiresAt > now,
    };
  }

  acquire(sessionId: string, holder: string, options: { force?: boolean } = {}): LeaseResult {
    this.#use(sessionId, true);
    const now = Date.now();
    let entry = this.#entries.get(sessionId);
    if (entry?.lease && entry.lease.holder !== holder && entry.lease.expiresAt > now && !options.force) return { acquired: false };
    const existed = entry !== undefined;
    // Every field from the start: one added later goes to a separate property array.
    if (!entry) this.#entries.set(sessionId, (entry = { messages: [], run: undefined, lease: undefined }));
    entry.lease = { holder, expiresAt: now + this.leaseMs };
    return { acquired: true, checkpoint: existed ? this.#view(sessionId, entry, now) : undefined };
  }

  renew(sessionId: string, holder: string): boolean {
    this.#use(sessionId);
    const lease = this.#entries.get(sessionId)?.lease;
    if (!lease || lease.holder !== holder) return false;
    lease.expiresAt = Date.now() + this.leaseMs;
    return true;
  }

  release(sessionId: string, holder: string): void {
    this.#use(sessionId);
    const entry = this.#entries.get(sessionId);
    if (entry?.lease?.holder === holder) entry.lease = undefined;
  }

  save(sessionId: string, write: CheckpointWrite): void {
    this.#use(sessionId);
    const entry = this.#entries.get(sessionId);
    if (!entry?.lease || entry.lease.holder !== write.holder) throw new SessionLeaseLostError(sessionId);
    const { start, progress } = write.run;
    // Refused before anything changes: a failed save writes nothing, as in the other stores.
    if (!start && !entry.run) throw missingRunStartError(sessionId);
    entry.lease.expiresAt = Date.now() + this.leaseMs;
    applyList(entry.messages, write.messages);
    const run = start ? (entry.run = { start: { ...start }, progress: { ...progress }, stepUsage: [], toolCalls: [] }) : entry.run!;
    run.progress = { ...progress };
    applyList(run.stepUsage, write.run.stepUsage);
    applyList(run.toolCalls, write.run.toolCalls);
    if (progress.state !== 'running') {
      // The leg is over: lists grown by push keep room for 16 more items (about 130 B each, per
      // idle session); copies are exact. Once per leg, so a checkpoint still costs a few pushes.
      entry.messages = entry.messages.slice();
      run.stepUsage = run.stepUsage.slice();
      run.toolCalls = run.toolCalls.slice();
    }
  }

  /** The current lease holder of a session, expired or not (what fencing compares against). */
  holderOf(sessionId: string): string | undefined {
    return this.#entries.get(sessionId)?.lease?.holder;
  }

  /** The session's stored transcript and run state, or undefined before its first checkpoint. */
  load(sessionId: string): StoredCheckpoint | undefined {
    this.#use(sessionId);
    const entry = this.#entries.get(sessionId);
    return entry && this.#view(sessionId, entry, Date.now());
  }

  leaseState(sessionId: string): LeaseState | undefined {
    const entry = this.#entries.get(sessionId);
    if (!entry) return undefined;
    const state = entry.run?.progress.state;
    return { leased: entry.lease !== undefined && entry.lease.expiresAt > Date.now(), ...(state ? { run: state } : {}) };
  }

  /** Forgets the session's checkpoint, transcript and lease. */
  delete(sessionId: string): void {
    this.#entries.delete(sessionId);
  }
}

/** The store type `memoryStore()` returns: every part, in this process's memory. */
export interface MemoryStore extends CompleteAgentStore {
  sessions: MemorySessionStore;
  checkpoints: MemoryCheckpointStore;
  approvals: InMemoryApprovalStore;
}

/**
 * Sessions, checkpoints and approvals in memory: the default store of `createAgent()`. Everything
 * is lost when the process ends; use `SqliteStore` (from `/sqlite`) to survive restarts.
 *
 * It keeps at most `maxSessions` sessions (default 1,000), and with `idleTtlMs` only those used
 * within that time: past either, a finished session is forgotten whole, least recently used first
 * (an agent using the store forgets it too). A session with a run going on or paused for an
 * approval is always kept.
 */
export function memoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxSessions = retentionLimit(options.maxSessions, DEFAULT_MAX_SESSIONS, 'maxSessions');
  const idleTtlMs = retentionLimit(options.idleTtlMs, Infinity, 'idleTtlMs');
  const approvals = new InMemoryApprovalStore();
  // The retention reads the parts, and the parts take the retention: its callbacks find them here.
  const parts: { sessions?: MemorySessionStore; checkpoints?: MemoryCheckpointStore } = {};
  const retention =
    maxSessions === Infinity && idleTtlMs === Infinity
      ? undefined
      : new SessionRetention({
          maxSessions,
          idleTtlMs,
          canForget: (id) => (parts.sessions!.statusOf(id) ?? 'idle') === 'idle' && !parts.checkpoints!.isPinned(id) && !approvals.hasOpen(id),
          forget(id) {
            parts.sessions!.delete(id);
            parts.checkpoints!.delete(id);
            approvals.deleteSession(id);
          },
        });
  const checkpoints = (parts.checkpoints = new MemoryCheckpointStore(options, retention));
  const sessions = (parts.sessions = new MemorySessionStore((id) => checkpoints.holderOf(id), retention));
  return { sessions, checkpoints, approvals };
}
