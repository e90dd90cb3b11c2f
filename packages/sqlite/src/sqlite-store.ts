import { createRequire } from 'node:module';
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
  type CheckpointStore,
  type CheckpointWrite,
  type CompleteAgentStore,
  type EventToAppend,
  type LeaseResult,
  type LeaseState,
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
  storedEvent,
  storedEventBody,
  toJson,
  sessionRecordOf,
  titleFromEvents,
  usageColumnAfter,
  pageOf,
  decodeSessionCursor,
  checkPageLimit,
  sessionNotFoundError,
  type SessionRow,
  type StoreEncryptionOptions,
  type TextSealer,
} from '@lousho/store-kit';
import { textSealer } from '@lousho/store-kit/node';
import type { SqliteDatabase, SqliteDatabaseConstructor, SqliteStatement } from './driver.js';
import { corruptFileError, isCorruption, unavailableError } from './errors.js';
import { migrate } from './schema.js';
import { SqliteReplayStore } from './replay-store.js';

type Database = SqliteDatabase;
type Statement = SqliteStatement;

/** Options of `SqliteStore`: the lease length, how durably each write is synced, how long to wait for a busy file. */
export interface SqliteStoreOptions {
  /** How long a run's lease on a session lasts without renewal (default 30,000 ms). */
  leaseMs?: number;
  /**
   * `'NORMAL'` (default) survives a crash of the process; `'FULL'` also survives a power cut,
   * at the price of a disk flush per write.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /** How long a write waits for another process's write to finish (default 5,000 ms). */
  busyTimeoutMs?: number;
  /**
   * Encrypts what the file keeps (events, transcript, run state, approvals, pending approvals) with
   * this AES-256 key; ids, seq numbers, statuses, leases and times stay readable (docs/durable.md).
   */
  encryption?: StoreEncryptionOptions;
}

/** The statements every part shares, prepared once per connection. */
class Statements {
  readonly db: Database;
  /** Seals the JSON columns (a no-op without encryption). */
  readonly sealer: TextSealer;
  readonly #cache = new Map<string, Statement>();
  constructor(db: Database, sealer: TextSealer) {
    this.db = db;
    this.sealer = sealer;
  }
  get(sql: string): Statement {
    let statement = this.#cache.get(sql);
    if (!statement) this.#cache.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}

/** Sessions and their event logs in the SQLite file (`SqliteStore.sessions`). */
export class SqliteSessionStore implements SessionStore {
  readonly #s: Statements;
  readonly #guard: <T>(fn: () => T) => T;
  readonly #appendTx: (id: string, events: readonly EventToAppend[], holder: string | undefined) => AgentStreamEvent[];
  readonly #compactTx: (id: string, throughSeq: number, fromSeq: number) => void;

  constructor(statements: Statements, guard: <T>(fn: () => T) => T) {
    this.#s = statements;
    this.#guard = guard;
    this.#appendTx = statements.db.transaction((id: string, events: readonly EventToAppend[], holder: string | undefined) => {
      if (holder !== undefined) {
        const lease = this.#s.get('SELECT lease_holder FROM lousho_checkpoints WHERE session_id = ?').get(id) as { lease_holder: string | null } | undefined;
        if (lease?.lease_holder !== holder) throw new SessionLeaseLostError(id);
      }
      const now = Date.now();
      this.#ensure(id, now);
      const { last_seq, usage } = this.#s.get('SELECT last_seq, usage FROM lousho_sessions WHERE id = ?').get(id) as { last_seq: number; usage: string | null };
      const insert = this.#s.get('INSERT INTO lousho_events (session_id, seq, body) VALUES (?, ?, ?)');
      let seq = last_seq;
      const numbered: AgentStreamEvent[] = [];
      for (const { runId, event } of events) {
        const stamped = stampEvent(event, ++seq, runId, id);
        insert.run(id, seq, this.#s.sealer.seal(storedEventBody(stamped), `event:${id}`));
        numbered.push(stamped);
      }
      const title = titleFromEvents(events);
      const sealedTitle = title === undefined ? null : this.#s.sealer.seal(title, `title:${id}`);
      this.#s.get('UPDATE lousho_sessions SET last_seq = ?, updated_at = ?, title = COALESCE(title, ?), usage = COALESCE(?, usage) WHERE id = ?').run(seq, now, sealedTitle, usageColumnAfter(usage, events) ?? null, id);
      return numbered;
    }).immediate;
    this.#compactTx = statements.db.transaction((id: string, throughSeq: number, fromSeq: number) => {
      const rows = this.#s.get('SELECT seq, body FROM lousho_events WHERE session_id = ? AND seq >= ? AND seq <= ? ORDER BY seq').all(id, fromSeq, throughSeq) as { seq: number; body: string }[];
      const events = rows.map((r) => storedEvent(this.#s.sealer.open(r.body, `event:${id}`), r.seq, id));
      const compacted = compactEventLog(events);
      if (compacted === events) return;
      // Rows of merged deltas go; the last delta of each merged run is rewritten with the joined text.
      const kept = new Set(compacted.map((event) => event.seq));
      const remove = this.#s.get('DELETE FROM lousho_events WHERE session_id = ? AND seq = ?');
      for (const event of events) if (!kept.has(event.seq)) remove.run(id, event.seq);
      const rewrite = this.#s.get('UPDATE lousho_events SET body = ? WHERE session_id = ? AND seq = ?');
      const original = new Set(events);
      for (const event of compacted) if (!original.has(event)) rewrite.run(this.#s.sealer.seal(storedEventBody(event), `event:${id}`), id, event.seq);
    }).immediate;
  }

  #ensure(id: string, now: number, owner?: string): boolean {
    const result = this.#s
      .get(
        `INSERT INTO lousho_sessions (id, owner, status, pending_approval, run_start_index, last_seq, created_at, updated_at)
         VALUES (?, ?, 'idle', NULL, 0, 0, ?, ?) ON CONFLICT (id) DO NOTHING`,
      )
      .run(id, owner ?? null, now, now);
    return result.changes > 0;
  }

  #record(row: SessionRow): SessionRecord {
    const pending = row.pending_approval;
    const title = row.title == null ? null : this.#s.sealer.open(row.title, `title:${row.id}`);
    return sessionRecordOf({ ...row, title, pending_approval: pending === null ? null : this.#s.sealer.open(pending, `session:${row.id}`) });
  }

  listPage(query: SessionPageQuery): SessionPage {
    const cursor = query.cursor !== undefined ? decodeSessionCursor(query.cursor) : undefined;
    const limit = checkPageLimit(query.limit);
    return this.#guard(() => {
      // Row-value comparison after ORDER BY ... DESC: an index range scan on (owner, updated_at, id).
      const where: string[] = [];
      const args: unknown[] = [];
      if (query.owner !== undefined) {
        where.push('owner = ?');
        args.push(query.owner);
      }
      if (cursor) {
        where.push('(updated_at, id) < (?, ?)');
        args.push(cursor.updatedAt, cursor.id);
      }
      const sql = `SELECT * FROM lousho_sessions${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at DESC, id DESC LIMIT ?`;
      const rows = this.#s.get(sql).all(...args, limit + 1) as SessionRow[];
      return pageOf(rows.map((row) => this.#record(row)), limit);
    });
  }

  rename(id: string, title: string): void {
    this.#guard(() => {
      const { changes } = this.#s.get('UPDATE lousho_sessions SET title = ? WHERE id = ?').run(this.#s.sealer.seal(title, `title:${id}`), id);
      if (changes === 0) throw sessionNotFoundError(id);
    });
  }

  get(id: string): SessionRecord | undefined {
    return this.#guard(() => {
      const row = this.#s.get('SELECT * FROM lousho_sessions WHERE id = ?').get(id) as SessionRow | undefined;
      return row && this.#record(row);
    });
  }

  create(id: string, init: { owner?: string } = {}): { created: boolean; record: SessionRecord } {
    return this.#guard(() => {
      const created = this.#ensure(id, Date.now(), init.owner);
      const row = this.#s.get('SELECT * FROM lousho_sessions WHERE id = ?').get(id) as SessionRow;
      return { created, record: this.#record(row) };
    });
  }

  update(id: string, patch: SessionPatch): void {
    this.#guard(() => {
      const now = Date.now();
      this.#ensure(id, now);
      const sets: string[] = ['updated_at = ?'];
      const values: unknown[] = [now];
      if (patch.status !== undefined) {
        sets.push('status = ?');
        values.push(patch.status);
      }
      if (patch.pendingApproval !== undefined) {
        sets.push('pending_approval = ?');
        values.push(patch.pendingApproval === null ? null : this.#s.sealer.seal(toJson(patch.pendingApproval), `session:${id}`));
      }
      if (patch.runStartIndex !== undefined) {
        sets.push('run_start_index = ?');
        values.push(patch.runStartIndex);
      }
      this.#s.get(`UPDATE lousho_sessions SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
    });
  }

  list(filter: { owner?: string } = {}): SessionRecord[] {
    return this.#guard(() => {
      const rows = (
        filter.owner !== undefined
          ? this.#s.get('SELECT * FROM lousho_sessions WHERE owner = ? ORDER BY created_at, id').all(filter.owner)
          : this.#s.get('SELECT * FROM lousho_sessions ORDER BY created_at, id').all()
      ) as SessionRow[];
      return rows.map((row) => this.#record(row));
    });
  }

  delete(id: string): void {
    this.#guard(() =>
      this.#s.db.transaction(() => {
        this.#s.get('DELETE FROM lousho_events WHERE session_id = ?').run(id);
        this.#s.get('DELETE FROM lousho_sessions WHERE id = ?').run(id);
      })(),
    );
  }

  appendEvents(id: string, events: readonly EventToAppend[], options: { holder?: string } = {}): AgentStreamEvent[] {
    return this.#guard(() => this.#appendTx(id, events, options.holder));
  }

  eventsAfter(id: string, afterSeq: number): AgentStreamEvent[] {
    return this.#guard(() => {
      const rows = this.#s.get('SELECT seq, body FROM lousho_events WHERE session_id = ? AND seq > ? ORDER BY seq').all(id, afterSeq) as { seq: number; body: string }[];
      return rows.map((r) => storedEvent(this.#s.sealer.open(r.body, `event:${id}`), r.seq, id));
    });
  }

  compactEvents(id: string, throughSeq: number, fromSeq = 0): void {
    this.#guard(() => this.#compactTx(id, throughSeq, fromSeq));
  }
}

interface CheckpointRow {
  session_id: string;
  lease_holder: string | null;
  lease_expires: number | null;
  run_start: string | null;
  run_progress: string | null;
  message_count: number;
  step_usage_count: number;
  tool_call_count: number;
}

/** Checkpoints in the SQLite file, each write one transaction (`SqliteStore.checkpoints`). */
export class SqliteCheckpointStore implements CheckpointStore {
  readonly leaseMs: number;
  readonly #s: Statements;
  readonly #guard: <T>(fn: () => T) => T;
  readonly #acquireTx: (sessionId: string, holder: string, force: boolean) => LeaseResult;
  readonly #saveTx: (sessionId: string, write: CheckpointWrite) => void;

  constructor(statements: Statements, guard: <T>(fn: () => T) => T, leaseMs: number) {
    this.#s = statements;
    this.#guard = guard;
    this.leaseMs = leaseMs;
    const db = statements.db;
    // IMMEDIATE: the write lock is taken up front, so two processes cannot both read "free" and both take it.
    this.#acquireTx = db.transaction((sessionId: string, holder: string, force: boolean): LeaseResult => {
      const now = Date.now();
      const row = this.#row(sessionId);
      if (row?.lease_holder && row.lease_holder !== holder && (row.lease_expires ?? 0) > now && !force) return { acquired: false };
      if (!row) {
        this.#s.get('INSERT INTO lousho_checkpoints (session_id, lease_holder, lease_expires) VALUES (?, ?, ?)').run(sessionId, holder, now + this.leaseMs);
        return { acquired: true, checkpoint: undefined };
      }
      this.#s.get('UPDATE lousho_checkpoints SET lease_holder = ?, lease_expires = ? WHERE session_id = ?').run(holder, now + this.leaseMs, sessionId);
      return { acquired: true, checkpoint: this.#read(sessionId, { ...row, lease_holder: holder, lease_expires: now + this.leaseMs }, now) };
    }).immediate;
    this.#saveTx = db.transaction((sessionId: string, write: CheckpointWrite) => {
      const now = Date.now();
      const row = this.#row(sessionId);
      if (!row || row.lease_holder !== write.holder) throw new SessionLeaseLostError(sessionId);
      const messageCount = this.#writeList('lousho_messages', 'message', sessionId, row.message_count, write.messages.keep, write.messages.append);
      const { start, progress } = write.run;
      let stepCount = row.step_usage_count;
      let toolCount = row.tool_call_count;
      if (start) {
        this.#s.get('DELETE FROM lousho_run_items WHERE session_id = ?').run(sessionId);
        stepCount = 0;
        toolCount = 0;
      } else if (row.run_start === null) {
        throw missingRunStartError(sessionId);
      }
      stepCount = this.#writeList('lousho_run_items', 'step', sessionId, stepCount, write.run.stepUsage.keep, write.run.stepUsage.append);
      toolCount = this.#writeList('lousho_run_items', 'tool', sessionId, toolCount, write.run.toolCalls.keep, write.run.toolCalls.append);
      this.#s
        .get(
          `UPDATE lousho_checkpoints SET lease_expires = ?, run_start = COALESCE(?, run_start), run_progress = ?,
           message_count = ?, step_usage_count = ?, tool_call_count = ? WHERE session_id = ?`,
        )
        .run(now + this.leaseMs, start ? this.#seal(toJson(start), 'run-start', sessionId) : null, this.#seal(toJson(progress), 'run-progress', sessionId), messageCount, stepCount, toolCount, sessionId);
    }).immediate;
  }

  #seal(text: string, kind: string, sessionId: string): string {
    return this.#s.sealer.seal(text, `${kind}:${sessionId}`);
  }

  #open<T>(text: string | null, kind: string, sessionId: string): T | undefined {
    return text === null ? undefined : (JSON.parse(this.#s.sealer.open(text, `${kind}:${sessionId}`)) as T);
  }

  #row(sessionId: string): CheckpointRow | undefined {
    return this.#s.get('SELECT * FROM lousho_checkpoints WHERE session_id = ?').get(sessionId) as CheckpointRow | undefined;
  }

  /** Keep `keep` of the `stored` items, append the rest; returns the new length. (`kind` 'message': the messages table, which has no kind column.) */
  #writeList(table: string, kind: string, sessionId: string, stored: number, keep: number, append: readonly unknown[]): number {
    const kindClause = kind === 'message' ? '' : ' AND kind = ?';
    const kindArgs = kind === 'message' ? [] : [kind];
    const from = Math.min(keep, stored);
    if (from < stored) this.#s.get(`DELETE FROM ${table} WHERE session_id = ?${kindClause} AND idx >= ?`).run(sessionId, ...kindArgs, from);
    const insert =
      kind === 'message'
        ? this.#s.get(`INSERT INTO ${table} (session_id, idx, body) VALUES (?, ?, ?)`)
        : this.#s.get(`INSERT INTO ${table} (session_id, kind, idx, body) VALUES (?, ?, ?, ?)`);
    let idx = from;
    for (const item of append) {
      const body = this.#seal(toJson(item), kind, sessionId);
      if (kind === 'message') insert.run(sessionId, idx, body);
      else insert.run(sessionId, kind, idx, body);
      idx++;
    }
    return idx;
  }

  #read(sessionId: string, row: CheckpointRow, now: number): StoredCheckpoint {
    const messages = (this.#s.get('SELECT body FROM lousho_messages WHERE session_id = ? ORDER BY idx').all(sessionId) as { body: string }[]).map(
      (r) => this.#open<Message>(r.body, 'message', sessionId)!,
    );
    const start = this.#open<RunStart>(row.run_start, 'run-start', sessionId);
    const progress = this.#open<RunProgress>(row.run_progress, 'run-progress', sessionId);
    let run: StoredCheckpoint['run'];
    if (start && progress) {
      const items = (kind: string) =>
        (this.#s.get('SELECT body FROM lousho_run_items WHERE session_id = ? AND kind = ? ORDER BY idx').all(sessionId, kind) as { body: string }[]).map((r) =>
          this.#open(r.body, kind, sessionId),
        );
      run = { ...start, ...progress, stepUsage: items('step') as StepUsage[], toolCalls: items('tool') as ToolCallRecord[] };
    }
    return { sessionId, messages, ...(run ? { run } : {}), leased: row.lease_holder !== null && (row.lease_expires ?? 0) > now };
  }

  acquire(sessionId: string, holder: string, options: { force?: boolean } = {}): LeaseResult {
    return this.#guard(() => this.#acquireTx(sessionId, holder, options.force === true));
  }

  renew(sessionId: string, holder: string): boolean {
    return this.#guard(
      () =>
        this.#s
          .get('UPDATE lousho_checkpoints SET lease_expires = ? WHERE session_id = ? AND lease_holder = ?')
          .run(Date.now() + this.leaseMs, sessionId, holder).changes > 0,
    );
  }

  release(sessionId: string, holder: string): void {
    this.#guard(() =>
      this.#s.get('UPDATE lousho_checkpoints SET lease_holder = NULL, lease_expires = NULL WHERE session_id = ? AND lease_holder = ?').run(sessionId, holder),
    );
  }

  save(sessionId: string, write: CheckpointWrite): void {
    this.#guard(() => this.#saveTx(sessionId, write));
  }

  leaseState(sessionId: string): LeaseState | undefined {
    return this.#guard(() => {
      const row = this.#s.get('SELECT lease_holder, lease_expires, run_progress FROM lousho_checkpoints WHERE session_id = ?').get(sessionId) as
        | Pick<CheckpointRow, 'lease_holder' | 'lease_expires' | 'run_progress'>
        | undefined;
      if (!row) return undefined;
      const state = this.#open<RunProgress>(row.run_progress, 'run-progress', sessionId)?.state;
      return { leased: row.lease_holder !== null && (row.lease_expires ?? 0) > Date.now(), ...(state ? { run: state } : {}) };
    });
  }

  load(sessionId: string): StoredCheckpoint | undefined {
    return this.#guard(() =>
      this.#s.db.transaction(() => {
        const row = this.#row(sessionId);
        return row && this.#read(sessionId, row, Date.now());
      })(),
    );
  }

  delete(sessionId: string): void {
    this.#guard(() =>
      this.#s.db.transaction(() => {
        this.#s.get('DELETE FROM lousho_messages WHERE session_id = ?').run(sessionId);
        this.#s.get('DELETE FROM lousho_run_items WHERE session_id = ?').run(sessionId);
        this.#s.get('DELETE FROM lousho_checkpoints WHERE session_id = ?').run(sessionId);
      })(),
    );
  }
}

/** Paused approvals in the SQLite file (`SqliteStore.approvals`). */
export class SqliteApprovalStore implements ApprovalStore {
  readonly #s: Statements;
  readonly #guard: <T>(fn: () => T) => T;
  readonly #claimTx: (id: string) => ApprovalRecord | undefined;

  constructor(statements: Statements, guard: <T>(fn: () => T) => T) {
    this.#s = statements;
    this.#guard = guard;
    this.#claimTx = statements.db.transaction((id: string) => {
      const record = this.#get(id);
      if (!record || record.status !== 'pending') return undefined;
      record.status = 'resolving';
      this.#put(record);
      return record;
    }).immediate;
  }

  #get(id: string): ApprovalRecord | undefined {
    const row = this.#s.get('SELECT body FROM lousho_approvals WHERE id = ?').get(id) as { body: string } | undefined;
    return row && this.#open(row.body, id);
  }

  #put(record: ApprovalRecord): void {
    this.#s
      .get(
        `INSERT INTO lousho_approvals (id, session_id, status, created_at, body) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, status = excluded.status, created_at = excluded.created_at, body = excluded.body`,
      )
      .run(record.approvalId, record.sessionId, record.status, record.createdAt, this.#s.sealer.seal(toJson(record), `approval:${record.approvalId}`));
  }

  #open(body: string, id: string): ApprovalRecord {
    return JSON.parse(this.#s.sealer.open(body, `approval:${id}`)) as ApprovalRecord;
  }

  save(record: ApprovalRecord): void {
    this.#guard(() => this.#put(record));
  }

  get(id: string): ApprovalRecord | undefined {
    return this.#guard(() => this.#get(id));
  }

  list(filter: { sessionId?: string; status?: ApprovalStatus } = {}): ApprovalRecord[] {
    return this.#guard(() => {
      const where: string[] = [];
      const args: unknown[] = [];
      if (filter.sessionId !== undefined) {
        where.push('session_id = ?');
        args.push(filter.sessionId);
      }
      if (filter.status !== undefined) {
        where.push('status = ?');
        args.push(filter.status);
      }
      const sql = `SELECT id, body FROM lousho_approvals${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, id`;
      return (this.#s.get(sql).all(...args) as { id: string; body: string }[]).map((r) => this.#open(r.body, r.id));
    });
  }

  claim(id: string): ApprovalRecord | undefined {
    return this.#guard(() => this.#claimTx(id));
  }

  complete(id: string, decision: NonNullable<ApprovalRecord['decision']>): void {
    this.#guard(() =>
      this.#s.db.transaction(() => {
        const record = this.#get(id);
        if (!record) return;
        record.status = 'resolved';
        record.decision = { ...decision };
        this.#put(record);
      }).immediate(),
    );
  }

  deleteSession(sessionId: string): void {
    this.#guard(() => this.#s.get('DELETE FROM lousho_approvals WHERE session_id = ?').run(sessionId));
  }

  release(id: string): void {
    this.#guard(() =>
      this.#s.db.transaction(() => {
        const record = this.#get(id);
        if (!record || record.status !== 'resolving') return;
        record.status = 'pending';
        this.#put(record);
      }).immediate(),
    );
  }
}

function loadDriver(path: string): SqliteDatabaseConstructor {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as SqliteDatabaseConstructor;
  } catch (error) {
    throw unavailableError(path, 'the better-sqlite3 package is not installed (it is an optional peer dependency)', error);
  }
}

/**
 * Sessions, checkpoints and approvals in one SQLite file (Node only; needs `better-sqlite3@12`).
 * WAL journal, schema versioned with `PRAGMA user_version` and migrated on open; a damaged file,
 * or one from a newer package, is refused with an error naming it, never reset. Several processes
 * may share a file: leases and transactions keep one run per session.
 *
 * ```ts
 * const agent = createAgent({ provider, tools, store: new SqliteStore('./data/agent.db') });
 * ```
 */
export class SqliteStore implements CompleteAgentStore {
  readonly path: string;
  // The parts answer synchronously (better-sqlite3 is synchronous); typed as such for Node callers.
  readonly sessions: SqliteSessionStore;
  readonly checkpoints: SqliteCheckpointStore;
  readonly approvals: SqliteApprovalStore;
  /** Webhook replay protection on this file (survives restarts, shared by processes): pass it as `replayStore`. */
  readonly replays: SqliteReplayStore;
  readonly #db: Database;

  constructor(path: string, options: SqliteStoreOptions = {}) {
    if (typeof path !== 'string' || path.length === 0) {
      throw unavailableError(String(path), 'the path must be a non-empty string (use ":memory:" for a throwaway store)');
    }
    this.path = path;
    const sealer = textSealer(options.encryption, `SqliteStore ${path}`);
    const Driver = loadDriver(path);
    let db: Database;
    try {
      db = new Driver(path);
    } catch (error) {
      throw isCorruption(error) ? corruptFileError(path, 'SQLite refused to open it', error) : unavailableError(path, (error as Error).message, error);
    }
    try {
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      migrate(db, path);
      if (path !== ':memory:') db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`);
    } catch (error) {
      db.close();
      if ((error as { name?: string }).name === 'StoreFileError') throw error;
      throw isCorruption(error) ? corruptFileError(path, 'SQLite reports it damaged', error) : unavailableError(path, (error as Error).message, error);
    }
    this.#db = db;
    const statements = new Statements(db, sealer);
    const guard = <T>(fn: () => T): T => {
      try {
        return fn();
      } catch (error) {
        if (isCorruption(error)) throw corruptFileError(path, 'SQLite reports it damaged', error);
        throw error;
      }
    };
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.sessions = new SqliteSessionStore(statements, guard);
    this.checkpoints = new SqliteCheckpointStore(statements, guard, leaseMs);
    this.approvals = new SqliteApprovalStore(statements, guard);
    this.replays = new SqliteReplayStore(db, guard);
  }

  /** Closes the file. The store cannot be used afterwards. */
  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
