import {
  type AgentStreamEvent,
  type Message,
  type ApprovalRecord,
  type ApprovalStatus,
  type ApprovalStore,
  type ToolCallRecord,
  SessionLeaseLostError,
  compactEventLog,
  DEFAULT_LEASE_MS,
  EncryptionUtils,
  type CheckpointStore,
  type CheckpointWrite,
  type CompleteAgentStore,
  type EventToAppend,
  type LeaseResult,
  type ListWrite,
  type RunProgress,
  type RunStart,
  type SessionPage,
  type SessionPageQuery,
  type SessionPatch,
  type SessionRecord,
  type SessionStore,
  type StoredCheckpoint,
  type StepUsage,
} from '@lousho/core';
import {
  stampEvent,
  missingRunStartError,
  fromJson,
  storedEvent,
  storedEventBody,
  toJson,
  webCryptoSealer,
  type AsyncTextSealer,
  type StoreEncryptionOptions,
  titleFromEvents,
  tallyUsage,
  usageOfTally,
  type SessionUsageTally,
  pageFromAll,
  sessionNotFoundError,
} from '@lousho/store-kit';
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
  /**
   * Encrypts what the database keeps (events, transcript, run state, approvals, pending approvals)
   * with this AES-256 key (Web Crypto); ids, seq numbers, statuses, leases and times stay readable
   * (docs/durable.md).
   */
  encryption?: StoreEncryptionOptions;
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

/** Values go in as JSON (as in the SQL stores): what is read back is what any other store gives. */
const plain = <T>(value: T): T => JSON.parse(toJson(value)) as T;

/** Every body opened at once (one Web Crypto call each, in parallel), parsed. */
const openAll = <T>(sealer: AsyncTextSealer, bodies: readonly string[], context: string): Promise<T[]> =>
  Promise.all(bodies.map(async (body) => JSON.parse(await sealer.open(body, context)) as T));

/** A session record as stored: with encryption, its pending approval is sealed text. */
type StoredRecord = Omit<SessionRecord, 'pendingApproval' | 'usage'> & {
  pendingApproval: SessionRecord['pendingApproval'] | string;
  /** How the session's usage is counted (no upgrade step: a record without it has no usage yet). */
  usageTally?: SessionUsageTally;
};

function newRecord(id: string, now: number, owner?: string): SessionRecord {
  return { id, ...(owner !== undefined ? { owner } : {}), status: 'idle', pendingApproval: null, runStartIndex: 0, lastSeq: 0, createdAt: now, updatedAt: now };
}

/** Sessions and their event logs in IndexedDB (part of `IndexedDbStore`). */
export class IndexedDbSessionStore implements SessionStore {
  readonly #run: Run;
  readonly #sealer: AsyncTextSealer;
  constructor(run: Run, sealer: AsyncTextSealer) {
    this.#run = run;
    this.#sealer = sealer;
  }

  /** The record as read: a sealed pending approval opened (outside the transaction: Web Crypto would end it). */
  async #record(stored: StoredRecord): Promise<SessionRecord> {
    if (stored.title !== undefined) stored = { ...stored, title: await this.#sealer.open(stored.title, `title:${stored.id}`) };
    if (stored.usageTally !== undefined) {
      const { usageTally, ...rest } = stored;
      stored = { ...rest, usage: usageOfTally(usageTally) } as StoredRecord;
    }
    const pending = stored.pendingApproval;
    if (pending && typeof pending !== 'string' && this.#sealer.encrypted) await this.#sealer.open(toJson(pending), `session:${stored.id}`);
    return typeof pending === 'string' ? { ...stored, pendingApproval: JSON.parse(await this.#sealer.open(pending, `session:${stored.id}`)) } : (stored as SessionRecord);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const stored = await this.#run([SESSIONS], 'readonly', (tx) => request<StoredRecord | undefined>(tx.objectStore(SESSIONS).get(id)));
    return stored && this.#record(stored);
  }

  async create(id: string, init: { owner?: string } = {}): Promise<{ created: boolean; record: SessionRecord }> {
    const answer = await this.#run([SESSIONS], 'readwrite', async (tx) => {
      const store = tx.objectStore(SESSIONS);
      const existing = await request<StoredRecord | undefined>(store.get(id));
      if (existing) return { created: false, record: existing };
      const record = newRecord(id, Date.now(), init.owner);
      await request(store.add(record));
      return { created: true, record: record as StoredRecord };
    });
    return { created: answer.created, record: await this.#record(answer.record) };
  }

  async update(id: string, patch: SessionPatch): Promise<void> {
    const change: Partial<StoredRecord> = plain(patch);
    if (this.#sealer.encrypted && patch.pendingApproval) change.pendingApproval = await this.#sealer.seal(toJson(patch.pendingApproval), `session:${id}`);
    await this.#run([SESSIONS], 'readwrite', async (tx) => {
      const store = tx.objectStore(SESSIONS);
      const now = Date.now();
      const record = (await request<StoredRecord | undefined>(store.get(id))) ?? newRecord(id, now);
      await request(store.put({ ...record, ...change, updatedAt: now }));
    });
  }

  async list(filter: { owner?: string } = {}): Promise<SessionRecord[]> {
    const all = await this.#run([SESSIONS], 'readonly', (tx) => request<StoredRecord[]>(tx.objectStore(SESSIONS).getAll()));
    const records = await Promise.all(all.filter((r) => filter.owner === undefined || r.owner === filter.owner).map((r) => this.#record(r)));
    return records.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async delete(id: string): Promise<void> {
    await this.#run([SESSIONS, EVENTS], 'readwrite', async (tx) => {
      await request(tx.objectStore(EVENTS).delete(sessionRange(id)));
      await request(tx.objectStore(SESSIONS).delete(id));
    });
  }

  /** A page of sessions: a browser's store holds one user's sessions, so they are sorted in memory. */
  async listPage(query: SessionPageQuery): Promise<SessionPage> {
    const all = await this.#run([SESSIONS], 'readonly', (tx) => request<StoredRecord[]>(tx.objectStore(SESSIONS).getAll()));
    const page = pageFromAll(all as SessionRecord[], query);
    return { ...page, sessions: await Promise.all(page.sessions.map((r) => this.#record(r as StoredRecord))) };
  }

  async rename(id: string, title: string): Promise<void> {
    const sealed = await this.#sealer.seal(title, `title:${id}`);
    await this.#run([SESSIONS], 'readwrite', async (tx) => {
      const store = tx.objectStore(SESSIONS);
      const record = await request<StoredRecord | undefined>(store.get(id));
      if (!record) throw sessionNotFoundError(id);
      await request(store.put({ ...record, title: sealed }));
    });
  }

  async appendEvents(id: string, events: readonly EventToAppend[], options: { holder?: string } = {}): Promise<AgentStreamEvent[]> {
    // The bodies are sealed before the transaction (a body holds neither seq nor session id).
    const bodies = await Promise.all(events.map(({ runId, event }) => this.#sealer.seal(storedEventBody(stampEvent(event, 0, runId, id)), `event:${id}`)));
    const title = titleFromEvents(events);
    const sealedTitle = title === undefined ? undefined : await this.#sealer.seal(title, `title:${id}`);
    return this.#run([SESSIONS, EVENTS, CHECKPOINTS], 'readwrite', async (tx) => {
      if (options.holder !== undefined) {
        const row = await request<CheckpointRow | undefined>(tx.objectStore(CHECKPOINTS).get(id));
        if (row?.lease?.holder !== options.holder) throw new SessionLeaseLostError(id);
      }
      const sessions = tx.objectStore(SESSIONS);
      const log = tx.objectStore(EVENTS);
      const now = Date.now();
      const record: StoredRecord = (await request<StoredRecord | undefined>(sessions.get(id))) ?? newRecord(id, now);
      const numbered: AgentStreamEvent[] = [];
      events.forEach(({ runId, event }, i) => {
        const stamped = stampEvent(event, ++record.lastSeq, runId, id);
        log.put({ sessionId: id, seq: stamped.seq, body: bodies[i]! } satisfies EventRow);
        numbered.push(stamped);
      });
      const usageTally = tallyUsage(record.usageTally, events);
      await request(sessions.put({ ...record, ...(record.title === undefined && sealedTitle !== undefined ? { title: sealedTitle } : {}), ...(usageTally ? { usageTally } : {}), updatedAt: now }));
      return numbered;
    });
  }

  async eventsAfter(id: string, afterSeq: number): Promise<AgentStreamEvent[]> {
    const rows = await this.#run([EVENTS], 'readonly', (tx) =>
      request<EventRow[]>(tx.objectStore(EVENTS).getAll(IDBKeyRange.bound([id, afterSeq], [id, []], true))),
    );
    return this.#events(rows, id);
  }

  #events(rows: readonly EventRow[], id: string): Promise<AgentStreamEvent[]> {
    return Promise.all(rows.map(async (row) => storedEvent(await this.#sealer.open(row.body, `event:${id}`), row.seq, id)));
  }

  async compactEvents(id: string, throughSeq: number, fromSeq = -Infinity): Promise<void> {
    // Read, compact and seal outside a transaction (Web Crypto would end it); then write in one that
    // first checks the rows are still the ones read (else another tab compacted them: nothing to do).
    const range = IDBKeyRange.bound([id, fromSeq], [id, throughSeq]);
    const rows = await this.#run([EVENTS], 'readonly', (tx) => request<EventRow[]>(tx.objectStore(EVENTS).getAll(range)));
    const events = await this.#events(rows, id);
    const compacted = compactEventLog(events);
    if (compacted === events) return;
    // Merged deltas go; the last delta of each merged run is rewritten with the joined text.
    const kept = new Set(compacted.map((event) => event.seq));
    const original = new Set(events);
    const rewritten = await Promise.all(
      compacted.filter((event) => !original.has(event)).map(async (event) => ({ sessionId: id, seq: event.seq, body: await this.#sealer.seal(storedEventBody(event), `event:${id}`) }) satisfies EventRow),
    );
    await this.#run([EVENTS], 'readwrite', async (tx) => {
      const log = tx.objectStore(EVENTS);
      const now = await request<EventRow[]>(log.getAll(range));
      if (now.length !== rows.length || now.some((row, i) => row.seq !== rows[i]!.seq || row.body !== rows[i]!.body)) return;
      for (const event of events) if (!kept.has(event.seq)) log.delete([id, event.seq]);
      for (const row of rewritten) log.put(row);
    });
  }
}

/** Checkpoints in IndexedDB, each write one transaction (part of `IndexedDbStore`). */
export class IndexedDbCheckpointStore implements CheckpointStore {
  readonly leaseMs: number;
  readonly #run: Run;
  readonly #liveness: PageLiveness;
  readonly #sealer: AsyncTextSealer;

  constructor(run: Run, liveness: PageLiveness, leaseMs: number, sealer: AsyncTextSealer) {
    this.#run = run;
    this.#liveness = liveness;
    this.leaseMs = leaseMs;
    this.#sealer = sealer;
  }

  #seal(value: unknown, kind: string, sessionId: string): Promise<string> {
    return this.#sealer.seal(toJson(value), `${kind}:${sessionId}`);
  }

  async #open<T>(text: string | undefined, kind: string, sessionId: string): Promise<T | undefined> {
    return text === undefined ? undefined : fromJson<T>(await this.#sealer.open(text, `${kind}:${sessionId}`));
  }

  #lease(holder: string, now: number): NonNullable<CheckpointRow['lease']> {
    return { holder, expiresAt: now + this.leaseMs, instance: this.#liveness.instance, renewedAt: now };
  }

  async acquire(sessionId: string, holder: string, options: { force?: boolean } = {}): Promise<LeaseResult> {
    await this.#liveness.ready;
    const live = await this.#liveness.live();
    const answer = await this.#run([CHECKPOINTS, MESSAGES, RUN_ITEMS], 'readwrite', async (tx) => {
      const rows = tx.objectStore(CHECKPOINTS);
      const now = Date.now();
      const row = await request<CheckpointRow | undefined>(rows.get(sessionId));
      if (row?.lease && row.lease.holder !== holder && this.#liveness.holds(row.lease, live, now) && !options.force) return { acquired: false as const };
      if (!row) {
        await request(rows.add({ sessionId, lease: this.#lease(holder, now), messageCount: 0, stepCount: 0, toolCount: 0 } satisfies CheckpointRow));
        return { acquired: true as const, raw: undefined };
      }
      const taken: CheckpointRow = { ...row, lease: this.#lease(holder, now) };
      await request(rows.put(taken));
      return { acquired: true as const, raw: await this.#readRows(tx, taken, live, now) };
    });
    if (!answer.acquired) return { acquired: false };
    return { acquired: true, checkpoint: answer.raw && (await this.#decode(answer.raw)) };
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
    // Sealed before the transaction (Web Crypto would end it).
    const seal = (list: ListWrite<unknown>, kind: string) => Promise.all(list.append.map((item) => this.#seal(item, kind, sessionId))).then((append) => ({ keep: list.keep, append }));
    const [messages, steps, tools, startBody, progressBody] = await Promise.all([
      seal(write.messages, 'message'),
      seal(write.run.stepUsage, 'step'),
      seal(write.run.toolCalls, 'tool'),
      write.run.start ? this.#seal(write.run.start, 'run-start', sessionId) : undefined,
      this.#seal(write.run.progress, 'run-progress', sessionId),
    ]);
    await this.#run([CHECKPOINTS, MESSAGES, RUN_ITEMS], 'readwrite', async (tx) => {
      const rows = tx.objectStore(CHECKPOINTS);
      const row = await request<CheckpointRow | undefined>(rows.get(sessionId));
      if (!row?.lease || row.lease.holder !== write.holder) throw new SessionLeaseLostError(sessionId);
      const { start } = write.run;
      if (!start && row.runStart === undefined) throw missingRunStartError(sessionId);
      const messageCount = await writeList(tx.objectStore(MESSAGES), [sessionId], row.messageCount, messages);
      let stepCount = row.stepCount;
      let toolCount = row.toolCount;
      if (start) {
        await request(tx.objectStore(RUN_ITEMS).delete(sessionRange(sessionId)));
        stepCount = toolCount = 0;
      }
      stepCount = await writeList(tx.objectStore(RUN_ITEMS), [sessionId, 'step'], stepCount, steps);
      toolCount = await writeList(tx.objectStore(RUN_ITEMS), [sessionId, 'tool'], toolCount, tools);
      const next: CheckpointRow = {
        ...row,
        lease: this.#lease(write.holder, Date.now()),
        ...(startBody !== undefined ? { runStart: startBody } : {}),
        runProgress: progressBody,
        messageCount,
        stepCount,
        toolCount,
      };
      await request(rows.put(next));
    });
  }

  async load(sessionId: string): Promise<StoredCheckpoint | undefined> {
    const live = await this.#liveness.live();
    const raw = await this.#run([CHECKPOINTS, MESSAGES, RUN_ITEMS], 'readonly', async (tx) => {
      const row = await request<CheckpointRow | undefined>(tx.objectStore(CHECKPOINTS).get(sessionId));
      return row && this.#readRows(tx, row, live, Date.now());
    });
    return raw && this.#decode(raw);
  }

  async delete(sessionId: string): Promise<void> {
    await this.#run([CHECKPOINTS, MESSAGES, RUN_ITEMS], 'readwrite', async (tx) => {
      tx.objectStore(MESSAGES).delete(sessionRange(sessionId));
      tx.objectStore(RUN_ITEMS).delete(sessionRange(sessionId));
      await request(tx.objectStore(CHECKPOINTS).delete(sessionId));
    });
  }

  /** The rows of a checkpoint, read in the transaction; `#decode` makes the checkpoint of them after it. */
  async #readRows(tx: IDBTransaction, row: CheckpointRow, live: LiveInstances | undefined, now: number): Promise<RawCheckpoint> {
    const [messageRows, itemRows] = await Promise.all([
      request<ItemRow[]>(tx.objectStore(MESSAGES).getAll(sessionRange(row.sessionId))),
      request<ItemRow[]>(tx.objectStore(RUN_ITEMS).getAll(sessionRange(row.sessionId))),
    ]);
    return { row, messageRows, itemRows, leased: this.#liveness.holds(row.lease, live, now) };
  }

  async #decode({ row, messageRows, itemRows, leased }: RawCheckpoint): Promise<StoredCheckpoint> {
    const id = row.sessionId;
    const items = (kind: string) => openAll(this.#sealer, itemRows.filter((r) => r.kind === kind).map((r) => r.body), `${kind}:${id}`);
    const [start, progress, messages, stepUsage, toolCalls] = await Promise.all([
      this.#open<RunStart>(row.runStart, 'run-start', id),
      this.#open<RunProgress>(row.runProgress, 'run-progress', id),
      openAll<Message>(this.#sealer, messageRows.map((r) => r.body), `message:${id}`),
      items('step') as Promise<StepUsage[]>,
      items('tool') as Promise<ToolCallRecord[]>,
    ]);
    return { sessionId: id, messages, ...(start && progress ? { run: { ...start, ...progress, stepUsage, toolCalls } } : {}), leased };
  }
}

interface RawCheckpoint {
  row: CheckpointRow;
  messageRows: ItemRow[];
  itemRows: ItemRow[];
  leased: boolean;
}

/** Keeps `keep` of the `stored` items under `prefix`, appends the rest (bodies already JSON, sealed or not); returns the new length. */
async function writeList(store: IDBObjectStore, prefix: string[], stored: number, write: ListWrite<string>): Promise<number> {
  const from = Math.min(write.keep, stored);
  if (from < stored) await request(store.delete(sessionRange(prefix[0]!, ...prefix.slice(1), from)));
  let idx = from;
  for (const item of write.append) {
    const row: ItemRow = { sessionId: prefix[0]!, ...(prefix[1] !== undefined ? { kind: prefix[1] } : {}), idx: idx++, body: item };
    store.put(row);
  }
  return idx;
}

/**
 * An approval as stored: the record itself, or with encryption its plain columns (id, session,
 * status, time: what `list` and `claim` need) and the rest sealed in `body` (a decision in `decision`).
 */
type ApprovalRow = ApprovalRecord | (Pick<ApprovalRecord, 'approvalId' | 'sessionId' | 'status' | 'createdAt'> & { body: string; decision?: string });

/** Paused approvals in IndexedDB (part of `IndexedDbStore`). */
export class IndexedDbApprovalStore implements ApprovalStore {
  readonly #run: Run;
  readonly #sealer: AsyncTextSealer;
  constructor(run: Run, sealer: AsyncTextSealer) {
    this.#run = run;
    this.#sealer = sealer;
  }

  async #record(row: ApprovalRow): Promise<ApprovalRecord> {
    if (!('body' in row) || typeof row.body !== 'string') {
      // A record kept in the clear, read with a key: refused (the sealer says so), never trusted.
      if (this.#sealer.encrypted) await this.#sealer.open(toJson(row), `approval:${row.approvalId}`);
      return row as ApprovalRecord;
    }
    const id = row.approvalId;
    const record = JSON.parse(await this.#sealer.open(row.body, `approval:${id}`)) as ApprovalRecord;
    const decision = row.decision !== undefined ? (JSON.parse(await this.#sealer.open(row.decision, `approval-decision:${id}`)) as ApprovalRecord['decision']) : record.decision;
    return { ...record, status: row.status, ...(decision ? { decision } : {}) };
  }

  /** Reads the row, lets `change` edit its plain fields (or say there is nothing to do), and writes it back. */
  async #change(id: string, change: (row: ApprovalRow) => boolean): Promise<ApprovalRecord | undefined> {
    const row = await this.#run([APPROVALS], 'readwrite', async (tx) => {
      const store = tx.objectStore(APPROVALS);
      const found = await request<ApprovalRow | undefined>(store.get(id));
      if (!found || !change(found)) return undefined;
      await request(store.put(found));
      return found;
    });
    return row && this.#record(row);
  }

  async save(record: ApprovalRecord): Promise<void> {
    const row: ApprovalRow = this.#sealer.encrypted
      ? { approvalId: record.approvalId, sessionId: record.sessionId, status: record.status, createdAt: record.createdAt, body: await this.#sealer.seal(toJson(record), `approval:${record.approvalId}`) }
      : plain(record);
    await this.#run([APPROVALS], 'readwrite', (tx) => request(tx.objectStore(APPROVALS).put(row)));
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const row = await this.#run([APPROVALS], 'readonly', (tx) => request<ApprovalRow | undefined>(tx.objectStore(APPROVALS).get(id)));
    return row && this.#record(row);
  }

  async list(filter: { sessionId?: string; status?: ApprovalStatus } = {}): Promise<ApprovalRecord[]> {
    const rows = await this.#run([APPROVALS], 'readonly', (tx) => {
      const store = tx.objectStore(APPROVALS);
      return request<ApprovalRow[]>(filter.sessionId !== undefined ? store.index('bySession').getAll(filter.sessionId) : store.getAll());
    });
    const records = await Promise.all(rows.filter((r) => filter.status === undefined || r.status === filter.status).map((r) => this.#record(r)));
    return records.sort((a, b) => a.createdAt - b.createdAt || (a.approvalId < b.approvalId ? -1 : a.approvalId > b.approvalId ? 1 : 0));
  }

  async claim(id: string): Promise<ApprovalRecord | undefined> {
    return this.#change(id, (row) => row.status === 'pending' && ((row.status = 'resolving'), true));
  }

  async complete(id: string, decision: NonNullable<ApprovalRecord['decision']>): Promise<void> {
    const sealed = this.#sealer.encrypted ? await this.#sealer.seal(toJson(decision), `approval-decision:${id}`) : undefined;
    await this.#change(id, (row) => {
      row.status = 'resolved';
      if (sealed !== undefined && 'body' in row && typeof row.body === 'string') (row as { decision?: string }).decision = sealed;
      else (row as ApprovalRecord).decision = plain(decision);
      return true;
    });
  }

  async release(id: string): Promise<void> {
    await this.#change(id, (row) => row.status === 'resolving' && ((row.status = 'pending'), true));
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.#run([APPROVALS], 'readwrite', async (tx) => {
      const store = tx.objectStore(APPROVALS);
      const keys = await request(store.index('bySession').getAllKeys(sessionId));
      await Promise.all(keys.map((key) => request(store.delete(key))));
    });
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
    const sealer = webCryptoSealer(options.encryption, `IndexedDbStore '${name}'`, EncryptionUtils);
    this.sessions = new IndexedDbSessionStore(run, sealer);
    this.checkpoints = new IndexedDbCheckpointStore(run, new PageLiveness(name, locks), leaseMs, sealer);
    this.approvals = new IndexedDbApprovalStore(run, sealer);
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
