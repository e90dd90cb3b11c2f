import type { AgentStreamEvent } from '../events/types.js';
import { stampEvent } from '../events/stamp.js';
import type { Message } from '../messages.js';
import type { ApprovalRecord, ApprovalStatus, ApprovalStore } from '../agent/approval-store.js';
import type { ToolCallRecord } from '../agent/types.js';
import { SessionLeaseLostError, missingRunStartError } from '../stores/errors.js';
import { compactEventLog } from '../stores/compact-log.js';
import { fromJson, storedEvent, storedEventBody, toJson } from '../stores/json-text.js';
import { DEFAULT_LEASE_MS } from '../stores/memory-store.js';
import type {
  CheckpointStore,
  CheckpointWrite,
  CompleteAgentStore,
  EventToAppend,
  LeaseResult,
  ListWrite,
  RunProgress,
  RunStart,
  SessionPatch,
  SessionRecord,
  SessionStore,
  StoredCheckpoint,
} from '../stores/types.js';
import type { StepUsage } from '../usage/types.js';
import { newerVersionError, storeFailure, unavailableError } from './errors.js';
import { PageLiveness, type LiveInstances, type LockManagerLike } from './page-liveness.js';
import { inTransaction, request, sessionRange } from './requests.js';
import { SCHEMA_VERSION, STORES, upgrade } from './schema.js';

/** Options of `IndexedDbStore`: the lease length, and the IndexedDB and lock manager to use (the page's by default). */
export interface IndexedDbStoreOptions {
  /** How long a run's lease on a session lasts without renewal (default 30,000 ms). */
  leaseMs?: number;
  /** The IndexedDB to use (default: the global `indexedDB`; tests pass e.g. fake-indexeddb's). */
  indexedDB?: IDBFactory;
  /**
   * The Web Locks API that tells a dead page's lease from a live one (default `navigator.locks`;
   * `null` turns it off: leases then only expire after `leaseMs`).
   */
  locks?: LockManagerLike | null;
}

/** A session's checkpoint row: the lease, the run's fixed and changing fields (JSON), the list lengths. */
interface CheckpointRow {
  sessionId: string;
  lease?: { holder: string; expiresAt: number; instance?: string; renewedAt?: number };
  runStart?: string;
  runProgress?: string;
  messageCount: number;
  stepCount: number;
  toolCount: number;
}

/** A stored event, message or run item: its key fields and its JSON text (what the SQL stores keep too). */
interface EventRow {
  sessionId: string;
  seq: number;
  body: string;
}
interface ItemRow {
  sessionId: string;
  kind?: string;
  idx: number;
  body: string;
}

type Run = <T>(stores: string[], mode: IDBTransactionMode, body: (tx: IDBTransaction) => Promise<T>) => Promise<T>;

const { sessions: SESSIONS, events: EVENTS, checkpoints: CHECKPOINTS, messages: MESSAGES, runItems: RUN_ITEMS, approvals: APPROVALS } = STORES;

const parse = <T>(row: { body: string }): T => JSON.parse(row.body) as T;

/** Values go in as JSON (as in the SQL stores): what is read back is what any other store gives. */
const plain = <T>(value: T): T => JSON.parse(toJson(value)) as T;

function newRecord(id: string, now: number, owner?: string): SessionRecord {
  return { id, ...(owner !== undefined ? { owner } : {}), status: 'idle', pendingApproval: null, runStartIndex: 0, lastSeq: 0, createdAt: now, updatedAt: now };
}

/** Sessions and their event logs in IndexedDB (part of `IndexedDbStore`). */
export class IndexedDbSessionStore implements SessionStore {
  readonly #run: Run;
  constructor(run: Run) {
    this.#run = run;
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    return this.#run([SESSIONS], 'readonly', (tx) => request<SessionRecord | undefined>(tx.objectStore(SESSIONS).get(id)));
  }

  async create(id: string, init: { owner?: string } = {}): Promise<{ created: boolean; record: SessionRecord }> {
    return this.#run([SESSIONS], 'readwrite', async (tx) => {
      const store = tx.objectStore(SESSIONS);
      const existing = await request<SessionRecord | undefined>(store.get(id));
      if (existing) return { created: false, record: existing };
      const record = newRecord(id, Date.now(), init.owner);
      await request(store.add(record));
      return { created: true, record };
    });
  }

  async update(id: string, patch: SessionPatch): Promise<void> {
    await this.#run([SESSIONS], 'readwrite', async (tx) => {
      const store = tx.objectStore(SESSIONS);
      const now = Date.now();
      const record = (await request<SessionRecord | undefined>(store.get(id))) ?? newRecord(id, now);
      await request(store.put({ ...record, ...plain(patch), updatedAt: now }));
    });
  }

  async list(filter: { owner?: string } = {}): Promise<SessionRecord[]> {
    const all = await this.#run([SESSIONS], 'readonly', (tx) => request<SessionRecord[]>(tx.objectStore(SESSIONS).getAll()));
    return all.filter((r) => filter.owner === undefined || r.owner === filter.owner).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async delete(id: string): Promise<void> {
    await this.#run([SESSIONS, EVENTS], 'readwrite', async (tx) => {
      await request(tx.objectStore(EVENTS).delete(sessionRange(id)));
      await request(tx.objectStore(SESSIONS).delete(id));
    });
  }

  async appendEvents(id: string, events: readonly EventToAppend[], options: { holder?: string } = {}): Promise<AgentStreamEvent[]> {
    return this.#run([SESSIONS, EVENTS, CHECKPOINTS], 'readwrite', async (tx) => {
      if (options.holder !== undefined) {
        const row = await request<CheckpointRow | undefined>(tx.objectStore(CHECKPOINTS).get(id));
        if (row?.lease?.holder !== options.holder) throw new SessionLeaseLostError(id);
      }
      const sessions = tx.objectStore(SESSIONS);
      const log = tx.objectStore(EVENTS);
      const now = Date.now();
      const record = (await request<SessionRecord | undefined>(sessions.get(id))) ?? newRecord(id, now);
      const numbered: AgentStreamEvent[] = [];
      for (const { runId, event } of events) {
        const stamped = stampEvent(event, ++record.lastSeq, runId, id);
        log.put({ sessionId: id, seq: stamped.seq, body: storedEventBody(stamped) } satisfies EventRow);
        numbered.push(stamped);
      }
      await request(sessions.put({ ...record, updatedAt: now }));
      return numbered;
    });
  }

  async eventsAfter(id: string, afterSeq: number): Promise<AgentStreamEvent[]> {
    const rows = await this.#run([EVENTS], 'readonly', (tx) =>
      request<EventRow[]>(tx.objectStore(EVENTS).getAll(IDBKeyRange.bound([id, afterSeq], [id, []], true))),
    );
    return rows.map((row) => storedEvent(row.body, row.seq, id));
  }

  async compactEvents(id: string, throughSeq: number, fromSeq = -Infinity): Promise<void> {
    await this.#run([EVENTS], 'readwrite', async (tx) => {
      const log = tx.objectStore(EVENTS);
      const rows = await request<EventRow[]>(log.getAll(IDBKeyRange.bound([id, fromSeq], [id, throughSeq])));
      const events = rows.map((row) => storedEvent(row.body, row.seq, id));
      const compacted = compactEventLog(events);
      if (compacted === events) return;
      // Merged deltas go; the last delta of each merged run is rewritten with the joined text.
      const kept = new Set(compacted.map((event) => event.seq));
      for (const event of events) if (!kept.has(event.seq)) log.delete([id, event.seq]);
      const original = new Set(events);
      for (const event of compacted) if (!original.has(event)) log.put({ sessionId: id, seq: event.seq, body: storedEventBody(event) } satisfies EventRow);
    });
  }
}

/** Checkpoints in IndexedDB, each write one transaction (part of `IndexedDbStore`). */
export class IndexedDbCheckpointStore implements CheckpointStore {
  readonly leaseMs: number;
  readonly #run: Run;
  readonly #liveness: PageLiveness;

  constructor(run: Run, liveness: PageLiveness, leaseMs: number) {
    this.#run = run;
    this.#liveness = liveness;
    this.leaseMs = leaseMs;
  }

  #lease(holder: string, now: number): NonNullable<CheckpointRow['lease']> {
    return { holder, expiresAt: now + this.leaseMs, instance: this.#liveness.instance, renewedAt: now };
  }

  async acquire(sessionId: string, holder: string, options: { force?: boolean } = {}): Promise<LeaseResult> {
    await this.#liveness.ready;
    const live = await this.#liveness.live();
    return this.#run([CHECKPOINTS, MESSAGES, RUN_ITEMS], 'readwrite', async (tx): Promise<LeaseResult> => {
      const rows = tx.objectStore(CHECKPOINTS);
      const now = Date.now();
      const row = await request<CheckpointRow | undefined>(rows.get(sessionId));
      if (row?.lease && row.lease.holder !== holder && this.#liveness.holds(row.lease, live, now) && !options.force) return { acquired: false };
      if (!row) {
        await request(rows.add({ sessionId, lease: this.#lease(holder, now), messageCount: 0, stepCount: 0, toolCount: 0 } satisfies CheckpointRow));
        return { acquired: true, checkpoint: undefined };
      }
      const taken: CheckpointRow = { ...row, lease: this.#lease(holder, now) };
      await request(rows.put(taken));
      return { acquired: true, checkpoint: await this.#read(tx, taken, live, now) };
    });
  }

  async renew(sessionId: string, holder: string): Promise<boolean> {
    return this.#run([CHECKPOINTS], 'readwrite', async (tx) => {
      const rows = tx.objectStore(CHECKPOINTS);
      const row = await request<CheckpointRow | undefined>(rows.get(sessionId));
      if (row?.lease?.holder !== holder) return false;
      await request(rows.put({ ...row, lease: this.#lease(holder, Date.now()) }));
      return true;
    });
  }

  async release(sessionId: string, holder: string): Promise<void> {
    await this.#run([CHECKPOINTS], 'readwrite', async (tx) => {
      const rows = tx.objectStore(CHECKPOINTS);
      const row = await request<CheckpointRow | undefined>(rows.get(sessionId));
      if (row?.lease?.holder !== holder) return;
      const { lease: _released, ...rest } = row;
      await request(rows.put(rest));
    });
  }

  async save(sessionId: string, write: CheckpointWrite): Promise<void> {
    await this.#run([CHECKPOINTS, MESSAGES, RUN_ITEMS], 'readwrite', async (tx) => {
      const rows = tx.objectStore(CHECKPOINTS);
      const row = await request<CheckpointRow | undefined>(rows.get(sessionId));
      if (!row?.lease || row.lease.holder !== write.holder) throw new SessionLeaseLostError(sessionId);
      const { start, progress } = write.run;
      if (!start && row.runStart === undefined) throw missingRunStartError(sessionId);
      const messageCount = await writeList(tx.objectStore(MESSAGES), [sessionId], row.messageCount, write.messages);
      let stepCount = row.stepCount;
      let toolCount = row.toolCount;
      if (start) {
        await request(tx.objectStore(RUN_ITEMS).delete(sessionRange(sessionId)));
        stepCount = toolCount = 0;
      }
      stepCount = await writeList(tx.objectStore(RUN_ITEMS), [sessionId, 'step'], stepCount, write.run.stepUsage);
      toolCount = await writeList(tx.objectStore(RUN_ITEMS), [sessionId, 'tool'], toolCount, write.run.toolCalls);
      const next: CheckpointRow = {
        ...row,
        lease: this.#lease(write.holder, Date.now()),
        ...(start ? { runStart: toJson(start) } : {}),
        runProgress: toJson(progress),
        messageCount,
        stepCount,
        toolCount,
      };
      await request(rows.put(next));
    });
  }

  async load(sessionId: string): Promise<StoredCheckpoint | undefined> {
    const live = await this.#liveness.live();
    return this.#run([CHECKPOINTS, MESSAGES, RUN_ITEMS], 'readonly', async (tx) => {
      const row = await request<CheckpointRow | undefined>(tx.objectStore(CHECKPOINTS).get(sessionId));
      return row && this.#read(tx, row, live, Date.now());
    });
  }

  async delete(sessionId: string): Promise<void> {
    await this.#run([CHECKPOINTS, MESSAGES, RUN_ITEMS], 'readwrite', async (tx) => {
      tx.objectStore(MESSAGES).delete(sessionRange(sessionId));
      tx.objectStore(RUN_ITEMS).delete(sessionRange(sessionId));
      await request(tx.objectStore(CHECKPOINTS).delete(sessionId));
    });
  }

  async #read(tx: IDBTransaction, row: CheckpointRow, live: LiveInstances | undefined, now: number): Promise<StoredCheckpoint> {
    const [messageRows, itemRows] = await Promise.all([
      request<ItemRow[]>(tx.objectStore(MESSAGES).getAll(sessionRange(row.sessionId))),
      request<ItemRow[]>(tx.objectStore(RUN_ITEMS).getAll(sessionRange(row.sessionId))),
    ]);
    const start = fromJson<RunStart>(row.runStart);
    const progress = fromJson<RunProgress>(row.runProgress);
    const items = (kind: string) => itemRows.filter((r) => r.kind === kind).map((r) => parse<unknown>(r));
    return {
      sessionId: row.sessionId,
      messages: messageRows.map((r) => parse<Message>(r)),
      ...(start && progress ? { run: { ...start, ...progress, stepUsage: items('step') as StepUsage[], toolCalls: items('tool') as ToolCallRecord[] } } : {}),
      leased: this.#liveness.holds(row.lease, live, now),
    };
  }
}

/** Keeps `keep` of the `stored` items under `prefix`, appends the rest; returns the new length. */
async function writeList(store: IDBObjectStore, prefix: string[], stored: number, write: ListWrite<unknown>): Promise<number> {
  const from = Math.min(write.keep, stored);
  if (from < stored) await request(store.delete(sessionRange(prefix[0]!, ...prefix.slice(1), from)));
  let idx = from;
  for (const item of write.append) {
    const row: ItemRow = { sessionId: prefix[0]!, ...(prefix[1] !== undefined ? { kind: prefix[1] } : {}), idx: idx++, body: toJson(item) };
    store.put(row);
  }
  return idx;
}

/** Paused approvals in IndexedDB (part of `IndexedDbStore`). */
export class IndexedDbApprovalStore implements ApprovalStore {
  readonly #run: Run;
  constructor(run: Run) {
    this.#run = run;
  }

  /** Reads the record, lets `change` edit it (or say there is nothing to do), and writes it back. */
  async #change(id: string, change: (record: ApprovalRecord) => boolean): Promise<ApprovalRecord | undefined> {
    return this.#run([APPROVALS], 'readwrite', async (tx) => {
      const store = tx.objectStore(APPROVALS);
      const record = await request<ApprovalRecord | undefined>(store.get(id));
      if (!record || !change(record)) return undefined;
      await request(store.put(record));
      return record;
    });
  }

  async save(record: ApprovalRecord): Promise<void> {
    await this.#run([APPROVALS], 'readwrite', (tx) => request(tx.objectStore(APPROVALS).put(plain(record))));
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    return this.#run([APPROVALS], 'readonly', (tx) => request<ApprovalRecord | undefined>(tx.objectStore(APPROVALS).get(id)));
  }

  async list(filter: { sessionId?: string; status?: ApprovalStatus } = {}): Promise<ApprovalRecord[]> {
    const records = await this.#run([APPROVALS], 'readonly', (tx) => {
      const store = tx.objectStore(APPROVALS);
      return request<ApprovalRecord[]>(filter.sessionId !== undefined ? store.index('bySession').getAll(filter.sessionId) : store.getAll());
    });
    return records
      .filter((r) => filter.status === undefined || r.status === filter.status)
      .sort((a, b) => a.createdAt - b.createdAt || (a.approvalId < b.approvalId ? -1 : a.approvalId > b.approvalId ? 1 : 0));
  }

  async claim(id: string): Promise<ApprovalRecord | undefined> {
    return this.#change(id, (record) => record.status === 'pending' && ((record.status = 'resolving'), true));
  }

  async complete(id: string, decision: NonNullable<ApprovalRecord['decision']>): Promise<void> {
    await this.#change(id, (record) => {
      record.status = 'resolved';
      record.decision = plain(decision);
      return true;
    });
  }

  async release(id: string): Promise<void> {
    await this.#change(id, (record) => record.status === 'resolving' && ((record.status = 'pending'), true));
  }
}

/**
 * Sessions, checkpoints and approvals in the browser's IndexedDB, for an agent that runs in the page
 * (or in a worker): a reload, or closing the tab and coming back, finds the conversation and any
 * pending approval where they were. Opens the database on first use (no I/O in the constructor).
 * Leases work across the tabs of a site (one run per session), and a run cut short by a reload is
 * seen as gone at once (Web Locks), so the next turn, or `agent.resume(id)`, picks it up.
 *
 * ```ts
 * import { IndexedDbStore } from '@lousho/build-ai-agent/indexeddb';
 * const agent = createAgent({ provider, tools, store: new IndexedDbStore('my-app-agent') });
 * ```
 */
export class IndexedDbStore implements CompleteAgentStore {
  readonly name: string;
  readonly sessions: IndexedDbSessionStore;
  readonly checkpoints: IndexedDbCheckpointStore;
  readonly approvals: IndexedDbApprovalStore;
  readonly #factory: IDBFactory;
  #db: Promise<IDBDatabase> | undefined;
  #closed = false;

  constructor(name = 'lousho', options: IndexedDbStoreOptions = {}) {
    if (typeof name !== 'string' || name.length === 0) throw unavailableError(String(name), 'the database name must be a non-empty string');
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!(Number.isFinite(leaseMs) && leaseMs > 0)) throw unavailableError(name, `leaseMs must be a positive number of milliseconds, not ${String(options.leaseMs)}`);
    const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
    if (!factory) throw unavailableError(name, 'this environment has no IndexedDB (a server, or a browser with storage turned off)');
    this.name = name;
    this.#factory = factory;
    const locks = options.locks === null ? undefined : (options.locks ?? (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks);
    const run: Run = async (stores, mode, body) => {
      const db = await this.#open();
      try {
        return await inTransaction(db, stores, mode, body);
      } catch (error) {
        throw storeFailure(name, error);
      }
    };
    this.sessions = new IndexedDbSessionStore(run);
    this.checkpoints = new IndexedDbCheckpointStore(run, new PageLiveness(name, locks), leaseMs);
    this.approvals = new IndexedDbApprovalStore(run);
  }

  #open(): Promise<IDBDatabase> {
    if (this.#closed) return Promise.reject(unavailableError(this.name, 'the store was closed'));
    if (this.#db) return this.#db;
    const opened = new Promise<IDBDatabase>((resolve, reject) => {
      let req: IDBOpenDBRequest;
      try {
        req = this.#factory.open(this.name, SCHEMA_VERSION);
      } catch (error) {
        reject(unavailableError(this.name, String((error as Error)?.message ?? error), error));
        return;
      }
      req.onupgradeneeded = (event) => upgrade(req.result, event.oldVersion);
      req.onsuccess = () => {
        const db = req.result;
        // Another page wants to upgrade the layout: step aside (the next call opens it again, and
        // says so if that page's package is newer).
        db.onversionchange = () => {
          db.close();
          if (this.#db === opened) this.#db = undefined;
        };
        resolve(db);
      };
      req.onerror = () => {
        const error = req.error;
        reject(error?.name === 'VersionError' ? newerVersionError(this.name, SCHEMA_VERSION, error) : unavailableError(this.name, error?.message ?? 'it could not be opened', error));
      };
    });
    // A failed open is tried again on the next call (storage may have been allowed meanwhile).
    opened.catch(() => {
      if (this.#db === opened) this.#db = undefined;
    });
    return (this.#db = opened);
  }

  /** Closes the database. The store cannot be used afterwards. */
  close(): void {
    this.#closed = true;
    void this.#db?.then((db) => db.close(), () => {});
    this.#db = undefined;
  }
}
