import { PostgresReplayStore } from './replay-store.js';
import {
  type AgentStreamEvent,
  type Message,
  ERROR_CODES,
  SDKError,
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
  type RunState,
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
  num,
  sessionRecordOf,
  titleFromEvents,
  usageColumnAfter,
  countsUsage,
  pageOf,
  decodeSessionCursor,
  checkPageLimit,
  sessionNotFoundError,
  type SessionRow,
  type StoreEncryptionOptions,
  type TextSealer,
} from '@lousho/store-kit';
import { textSealer } from '@lousho/store-kit/node';
import type { PgModule, PgPool, PgPoolClient, PgQueryable } from './driver.js';
import {
  PostgresStoreError,
  connectionLostError,
  driverMissingError,
  isConnectionError,
  queryFailedError,
  redactUrl,
  unreachableError,
} from './errors.js';
import { checkSchemaName, ident, migrate } from './schema.js';
import { PostgresSignals } from './signals.js';

/** Options of `PostgresStore`: the connection (a URL or your own pool), the schema, the lease length and the pool size. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:5432/db` (e.g. `process.env.DATABASE_URL`). Needed unless `pool` is given. */
  connectionString?: string;
  /**
   * A `pg.Pool` of your own (its settings, TLS, ...). The store never ends it; `close()` only gives
   * back the listening connection it took from it. Needs room for one long-lived connection.
   */
  pool?: PgPool;
  /** The schema holding the store's tables (created if missing). Default `public`. */
  schema?: string;
  /** How long a run's lease on a session lasts without renewal (default 30,000 ms), by the database's clock. */
  leaseMs?: number;
  /** Connections in the pool the store creates (default 10, one of them listening for signals). */
  max?: number;
  /** How long to wait for a new connection before failing (default 10,000 ms). */
  connectTimeoutMs?: number;
  /** Turns the cross-process signals off (one process only): no listening connection. Default false. */
  noSignals?: boolean;
  /**
   * Encrypts what the tables keep (events, transcript, run state, approvals, pending approvals) with
   * this AES-256 key; ids, seq numbers, statuses, leases and times stay readable (docs/durable.md).
   */
  encryption?: StoreEncryptionOptions;
}

/** A stored event: the body keeps everything but the row's key (session and `seq`), see `storedEventBody`. */
const eventOf =
  (db: Db, sessionId: string) =>
  (row: { seq: string | number; body: string }): AgentStreamEvent =>
    storedEvent(db.sealer.open(row.body, `event:${sessionId}`), num(row.seq), sessionId);

/** What every part shares: the pool, the schema and the error translation. */
class Db {
  readonly pool: PgPool;
  readonly s: string;
  readonly url: string;
  /** Seals the JSON columns (a no-op without encryption). */
  readonly sealer: TextSealer;

  constructor(pool: PgPool, schema: string, url: string, sealer: TextSealer) {
    this.pool = pool;
    this.s = ident(schema);
    this.url = url;
    this.sealer = sealer;
  }

  /** Store errors users can act on: a lost lease, a lost connection, a refused query. */
  translate(error: unknown): unknown {
    if (SDKError.is(error) || error instanceof TypeError) return error;
    if (isConnectionError(error)) return connectionLostError(this.url, error);
    return queryFailedError(this.url, error);
  }

  readonly guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw this.translate(error);
    }
  };

  query<R = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }> {
    return this.guard(() => this.pool.query<R>(sql, values));
  }

  /** Runs `work` in a transaction on one connection; a broken connection is not given back to the pool. */
  async transaction<T>(work: (client: PgQueryable) => Promise<T>): Promise<T> {
    return this.guard(async () => {
      const client: PgPoolClient = await this.pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        if (isConnectionError(error)) broken = error as Error;
        else await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw error;
      } finally {
        client.release(broken ?? false);
      }
    });
  }
}

/** Lease refusals raised by the store's SQL functions (SQLSTATE LS001). */
/** The refusals the schema's functions raise on purpose (LS001, LS002), as the SDK's errors. */
function leaseLost(sessionId: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'LS001') return new SessionLeaseLostError(sessionId);
  if (code === 'LS002') return missingRunStartError(sessionId);
  return error;
}

/** Sessions and their event logs in PostgreSQL (`PostgresStore.sessions`). */
export class PostgresSessionStore implements SessionStore {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  #record(row: SessionRow): SessionRecord {
    const pending = row.pending_approval;
    const title = row.title == null ? null : this.#db.sealer.open(row.title, `title:${row.id}`);
    return sessionRecordOf({ ...row, title, pending_approval: pending === null ? null : this.#db.sealer.open(pending, `session:${row.id}`) });
  }

  async listPage(query: SessionPageQuery): Promise<SessionPage> {
    const cursor = query.cursor !== undefined ? decodeSessionCursor(query.cursor) : undefined;
    const limit = checkPageLimit(query.limit);
    const values: unknown[] = [];
    const param = (value: unknown): string => `$${values.push(value)}`;
    const where: string[] = [];
    if (query.owner !== undefined) where.push(`owner = ${param(query.owner)}`);
    // A row comparison after ORDER BY ... DESC: an index range scan on (owner, updated_at, id).
    if (cursor) where.push(`(updated_at, id) < (${param(cursor.updatedAt)}, ${param(cursor.id)})`);
    const { rows } = await this.#db.query<SessionRow>(
      `SELECT * FROM ${this.#db.s}.lousho_sessions${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at DESC, id DESC LIMIT ${param(limit + 1)}`,
      values,
    );
    return pageOf(rows.map((row) => this.#record(row)), limit);
  }

  async rename(id: string, title: string): Promise<void> {
    const { rowCount } = await this.#db.query(`UPDATE ${this.#db.s}.lousho_sessions SET title = $2 WHERE id = $1`, [id, this.#db.sealer.seal(title, `title:${id}`)]);
    if (!rowCount) throw sessionNotFoundError(id);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const { rows } = await this.#db.query<SessionRow>(`SELECT * FROM ${this.#db.s}.lousho_sessions WHERE id = $1`, [id]);
    return rows[0] && this.#record(rows[0]);
  }

  async create(id: string, init: { owner?: string } = {}): Promise<{ created: boolean; record: SessionRecord }> {
    const s = this.#db.s;
    const inserted = await this.#db.query<SessionRow>(
      `INSERT INTO ${s}.lousho_sessions (id, owner, status, pending_approval, run_start_index, last_seq, created_at, updated_at)
       VALUES ($1, $2, 'idle', NULL, 0, 0, ${s}.lousho_now_ms(), ${s}.lousho_now_ms()) ON CONFLICT (id) DO NOTHING RETURNING *`,
      [id, init.owner ?? null],
    );
    if (inserted.rows[0]) return { created: true, record: this.#record(inserted.rows[0]) };
    const record = await this.get(id);
    if (!record) throw queryFailedError(this.#db.url, new Error(`session '${id}' exists and does not at the same time (deleted meanwhile?)`));
    return { created: false, record };
  }

  async update(id: string, patch: SessionPatch): Promise<void> {
    const s = this.#db.s;
    const values: unknown[] = [id];
    const param = (value: unknown): string => `$${values.push(value)}`;
    const status = patch.status !== undefined ? param(patch.status) : `'idle'`;
    const pending = patch.pendingApproval !== undefined ? param(patch.pendingApproval === null ? null : this.#db.sealer.seal(toJson(patch.pendingApproval), `session:${id}`)) : 'NULL';
    const runStart = patch.runStartIndex !== undefined ? param(patch.runStartIndex) : '0';
    const sets = ['updated_at = excluded.updated_at'];
    if (patch.status !== undefined) sets.push('status = excluded.status');
    if (patch.pendingApproval !== undefined) sets.push('pending_approval = excluded.pending_approval');
    if (patch.runStartIndex !== undefined) sets.push('run_start_index = excluded.run_start_index');
    // Insert-or-update in one statement: `update` creates the record (without owner) if needed.
    await this.#db.query(
      `INSERT INTO ${s}.lousho_sessions (id, owner, status, pending_approval, run_start_index, last_seq, created_at, updated_at)
       VALUES ($1, NULL, ${status}, ${pending}, ${runStart}, 0, ${s}.lousho_now_ms(), ${s}.lousho_now_ms())
       ON CONFLICT (id) DO UPDATE SET ${sets.join(', ')}`,
      values,
    );
  }

  async list(filter: { owner?: string } = {}): Promise<SessionRecord[]> {
    const s = this.#db.s;
    const { rows } =
      filter.owner !== undefined
        ? await this.#db.query<SessionRow>(`SELECT * FROM ${s}.lousho_sessions WHERE owner = $1 ORDER BY created_at, id`, [filter.owner])
        : await this.#db.query<SessionRow>(`SELECT * FROM ${s}.lousho_sessions ORDER BY created_at, id`);
    return rows.map((row) => this.#record(row));
  }

  async delete(id: string): Promise<void> {
    const s = this.#db.s;
    await this.#db.query(`WITH gone AS (DELETE FROM ${s}.lousho_events WHERE session_id = $1) DELETE FROM ${s}.lousho_sessions WHERE id = $1`, [id]);
  }

  async appendEvents(id: string, events: readonly EventToAppend[], options: { holder?: string } = {}): Promise<AgentStreamEvent[]> {
    const stamped = events.map(({ runId, event }) => stampEvent(event, undefined, runId, id));
    let first: number;
    try {
      const { rows } = await this.#db.pool.query<{ first: string }>(`SELECT ${this.#db.s}.lousho_append_events($1, $2, $3, $4) AS first`, [
        id,
        options.holder ?? null,
        // p_reset: the log is never reset any more (it keeps every run); the released function keeps its parameter.
        false,
        stamped.map((event) => this.#db.sealer.seal(toJson(event), `event:${id}`)),
      ]);
      first = num(rows[0]!.first);
    } catch (error) {
      throw this.#db.translate(leaseLost(id, error));
    }
    const title = titleFromEvents(events);
    if (title !== undefined) {
      await this.#db.query(`UPDATE ${this.#db.s}.lousho_sessions SET title = $2 WHERE id = $1 AND title IS NULL`, [id, this.#db.sealer.seal(title, `title:${id}`)]);
    }
    if (events.some(countsUsage)) await this.#countUsage(id, events);
    // (The copies are this call's own: numbered in place, `seq` after the fields as before.)
    for (let i = 0; i < stamped.length; i++) (stamped[i] as { seq: number }).seq = first + i + 1;
    return stamped;
  }

  /**
   * Adds the usage of the runs that ended in `events` to the session's tally: compare-and-set, so
   * two processes appending at once (a takeover) never lose a count.
   */
  async #countUsage(id: string, events: readonly EventToAppend[]): Promise<void> {
    const s = this.#db.s;
    for (;;) {
      const { rows } = await this.#db.query<{ usage: string | null }>(`SELECT usage FROM ${s}.lousho_sessions WHERE id = $1`, [id]);
      const current = rows[0]?.usage ?? null;
      const next = usageColumnAfter(current, events);
      if (next === undefined) return;
      const { rowCount } = await this.#db.query(`UPDATE ${s}.lousho_sessions SET usage = $2 WHERE id = $1 AND usage IS NOT DISTINCT FROM $3`, [id, next, current]);
      if (rowCount) return;
    }
  }

  async eventsAfter(id: string, afterSeq: number): Promise<AgentStreamEvent[]> {
    const { rows } = await this.#db.query<{ seq: string; body: string }>(
      `SELECT seq, body FROM ${this.#db.s}.lousho_events WHERE session_id = $1 AND seq > $2 ORDER BY seq`,
      [id, afterSeq],
    );
    return rows.map(eventOf(this.#db, id));
  }

  async compactEvents(id: string, throughSeq: number, fromSeq = 0): Promise<void> {
    const s = this.#db.s;
    await this.#db.transaction(async (client) => {
      // The session row's lock orders this with appends (a log reset cannot slip in between).
      await client.query(`SELECT 1 FROM ${s}.lousho_sessions WHERE id = $1 FOR UPDATE`, [id]);
      const { rows } = await client.query<{ seq: string; body: string }>(
        `SELECT seq, body FROM ${s}.lousho_events WHERE session_id = $1 AND seq >= $3 AND seq <= $2 ORDER BY seq`,
        [id, throughSeq, fromSeq],
      );
      const events = rows.map(eventOf(this.#db, id));
      const compacted = compactEventLog(events);
      if (compacted === events) return;
      // Rows of merged deltas go; the last delta of each merged run is rewritten with the joined text.
      const kept = new Set(compacted.map((event) => event.seq));
      const original = new Set(events);
      const removed = events.filter((event) => !kept.has(event.seq)).map((event) => event.seq);
      const rewritten = compacted.filter((event) => !original.has(event));
      await client.query(`DELETE FROM ${s}.lousho_events WHERE session_id = $1 AND seq = ANY($2::bigint[])`, [id, removed]);
      await client.query(
        `UPDATE ${s}.lousho_events AS e SET body = u.body FROM unnest($2::bigint[], $3::text[]) AS u(seq, body)
         WHERE e.session_id = $1 AND e.seq = u.seq`,
        [id, rewritten.map((event) => event.seq), rewritten.map((event) => this.#db.sealer.seal(storedEventBody(event), `event:${id}`))],
      );
    });
  }
}

interface CheckpointRow {
  lease_holder: string | null;
  lease_expires: string | null;
  run_start: string | null;
  run_progress: string | null;
  now: string;
  messages: string[];
  steps: string[];
  tools: string[];
}

/** Checkpoints in PostgreSQL, each write one statement under the lease (`PostgresStore.checkpoints`). */
export class PostgresCheckpointStore implements CheckpointStore {
  readonly leaseMs: number;
  readonly #db: Db;

  constructor(db: Db, leaseMs: number) {
    this.#db = db;
    this.leaseMs = leaseMs;
  }

  #seal(value: unknown, kind: string, sessionId: string): string {
    return this.#db.sealer.seal(toJson(value), `${kind}:${sessionId}`);
  }

  #open<T>(text: string | null, kind: string, sessionId: string): T | undefined {
    return fromJson<T>(text === null ? null : this.#db.sealer.open(text, `${kind}:${sessionId}`));
  }

  /** The checkpoint row with the transcript and run items, read in one statement (one snapshot). */
  async #read(sessionId: string): Promise<StoredCheckpoint | undefined> {
    const s = this.#db.s;
    const { rows } = await this.#db.query<CheckpointRow>(
      `SELECT c.lease_holder, c.lease_expires, c.run_start, c.run_progress, ${s}.lousho_now_ms() AS now,
         ARRAY(SELECT body FROM ${s}.lousho_messages m WHERE m.session_id = c.session_id ORDER BY idx) AS messages,
         ARRAY(SELECT body FROM ${s}.lousho_run_items i WHERE i.session_id = c.session_id AND kind = 'step' ORDER BY idx) AS steps,
         ARRAY(SELECT body FROM ${s}.lousho_run_items i WHERE i.session_id = c.session_id AND kind = 'tool' ORDER BY idx) AS tools
       FROM ${s}.lousho_checkpoints c WHERE c.session_id = $1`,
      [sessionId],
    );
    const row = rows[0];
    if (!row) return undefined;
    const start = this.#open<RunStart>(row.run_start, 'run-start', sessionId);
    const progress = this.#open<RunProgress>(row.run_progress, 'run-progress', sessionId);
    const parse = <T>(list: string[], kind: string): T[] => list.map((text) => this.#open<T>(text, kind, sessionId)!);
    return {
      sessionId,
      messages: parse<Message>(row.messages, 'message'),
      ...(start && progress ? { run: { ...start, ...progress, stepUsage: parse<StepUsage>(row.steps, 'step'), toolCalls: parse<ToolCallRecord>(row.tools, 'tool') } } : {}),
      leased: row.lease_holder !== null && num(row.lease_expires ?? 0) > num(row.now),
    };
  }

  async acquire(sessionId: string, holder: string, options: { force?: boolean } = {}): Promise<LeaseResult> {
    const { rows } = await this.#db.query<{ acquired: boolean; existed: boolean }>(`SELECT * FROM ${this.#db.s}.lousho_acquire($1, $2, $3, $4)`, [
      sessionId,
      holder,
      options.force === true,
      this.leaseMs,
    ]);
    const answer = rows[0]!;
    if (!answer.acquired) return { acquired: false };
    if (!answer.existed) return { acquired: true, checkpoint: undefined };
    // Read after taking the lease: from now on nobody else may write the checkpoint.
    return { acquired: true, checkpoint: await this.#read(sessionId) };
  }

  async renew(sessionId: string, holder: string): Promise<boolean> {
    const s = this.#db.s;
    const { rowCount } = await this.#db.query(
      `UPDATE ${s}.lousho_checkpoints SET lease_expires = ${s}.lousho_now_ms() + $3 WHERE session_id = $1 AND lease_holder = $2`,
      [sessionId, holder, this.leaseMs],
    );
    return (rowCount ?? 0) > 0;
  }

  async release(sessionId: string, holder: string): Promise<void> {
    await this.#db.query(`UPDATE ${this.#db.s}.lousho_checkpoints SET lease_holder = NULL, lease_expires = NULL WHERE session_id = $1 AND lease_holder = $2`, [
      sessionId,
      holder,
    ]);
  }

  async save(sessionId: string, write: CheckpointWrite): Promise<void> {
    const { start, progress, stepUsage, toolCalls } = write.run;
    try {
      await this.#db.pool.query(`SELECT ${this.#db.s}.lousho_save_checkpoint($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, [
        sessionId,
        write.holder,
        this.leaseMs,
        write.messages.keep,
        write.messages.append.map((message) => this.#seal(message, 'message', sessionId)),
        start ? this.#seal(start, 'run-start', sessionId) : null,
        this.#seal(progress, 'run-progress', sessionId),
        stepUsage.keep,
        stepUsage.append.map((step) => this.#seal(step, 'step', sessionId)),
        toolCalls.keep,
        toolCalls.append.map((call) => this.#seal(call, 'tool', sessionId)),
      ]);
    } catch (error) {
      throw this.#db.translate(leaseLost(sessionId, error));
    }
  }

  load(sessionId: string): Promise<StoredCheckpoint | undefined> {
    return this.#read(sessionId);
  }

  async leaseState(sessionId: string): Promise<LeaseState | undefined> {
    const s = this.#db.s;
    // Encrypted, the run's state is read in here; otherwise the database picks it out of the JSON.
    const sealed = this.#db.sealer.encrypted;
    const { rows } = await this.#db.query<{ leased: boolean; state: RunState | null; progress?: string | null }>(
      `SELECT lease_holder IS NOT NULL AND coalesce(lease_expires, 0) > ${s}.lousho_now_ms() AS leased,
         ${sealed ? 'NULL AS state, run_progress AS progress' : "run_progress::json ->> 'state' AS state"}
       FROM ${s}.lousho_checkpoints WHERE session_id = $1`,
      [sessionId],
    );
    const row = rows[0];
    const state = sealed ? this.#open<RunProgress>(row?.progress ?? null, 'run-progress', sessionId)?.state : row?.state;
    return row && { leased: row.leased, ...(state ? { run: state } : {}) };
  }

  async delete(sessionId: string): Promise<void> {
    const s = this.#db.s;
    await this.#db.query(
      `WITH m AS (DELETE FROM ${s}.lousho_messages WHERE session_id = $1), i AS (DELETE FROM ${s}.lousho_run_items WHERE session_id = $1)
       DELETE FROM ${s}.lousho_checkpoints WHERE session_id = $1`,
      [sessionId],
    );
  }
}

/** The record's status lives in its own column (so `claim` is one atomic UPDATE); the body has the rest. */
function approvalOf(db: Db, row: { id: string; status: string; body: string }): ApprovalRecord {
  return { ...(JSON.parse(db.sealer.open(row.body, `approval:${row.id}`)) as ApprovalRecord), status: row.status as ApprovalStatus };
}

/** Paused approvals in PostgreSQL, claimed atomically (`PostgresStore.approvals`). */
export class PostgresApprovalStore implements ApprovalStore {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async save(record: ApprovalRecord): Promise<void> {
    await this.#db.query(
      `INSERT INTO ${this.#db.s}.lousho_approvals (id, session_id, status, created_at, body) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, status = excluded.status, created_at = excluded.created_at, body = excluded.body`,
      [record.approvalId, record.sessionId, record.status, record.createdAt, this.#db.sealer.seal(toJson(record), `approval:${record.approvalId}`)],
    );
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const { rows } = await this.#db.query<{ id: string; status: string; body: string }>(`SELECT id, status, body FROM ${this.#db.s}.lousho_approvals WHERE id = $1`, [id]);
    return rows[0] && approvalOf(this.#db, rows[0]);
  }

  async list(filter: { sessionId?: string; status?: ApprovalStatus } = {}): Promise<ApprovalRecord[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    if (filter.sessionId !== undefined) where.push(`session_id = $${values.push(filter.sessionId)}`);
    if (filter.status !== undefined) where.push(`status = $${values.push(filter.status)}`);
    const { rows } = await this.#db.query<{ id: string; status: string; body: string }>(
      `SELECT id, status, body FROM ${this.#db.s}.lousho_approvals${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, id`,
      values,
    );
    return rows.map((row) => approvalOf(this.#db, row));
  }

  async claim(id: string): Promise<ApprovalRecord | undefined> {
    // One statement: of two concurrent claims, the second finds the row no longer pending.
    const { rows } = await this.#db.query<{ id: string; status: string; body: string }>(
      `UPDATE ${this.#db.s}.lousho_approvals SET status = 'resolving' WHERE id = $1 AND status = 'pending' RETURNING id, status, body`,
      [id],
    );
    return rows[0] && approvalOf(this.#db, rows[0]);
  }

  async complete(id: string, decision: NonNullable<ApprovalRecord['decision']>): Promise<void> {
    await this.#db.transaction(async (client) => {
      const { rows } = await client.query<{ id: string; status: string; body: string }>(`SELECT id, status, body FROM ${this.#db.s}.lousho_approvals WHERE id = $1 FOR UPDATE`, [id]);
      if (!rows[0]) return;
      const record = { ...approvalOf(this.#db, rows[0]), status: 'resolved' as const, decision: { ...decision } };
      await client.query(`UPDATE ${this.#db.s}.lousho_approvals SET status = 'resolved', body = $2 WHERE id = $1`, [id, this.#db.sealer.seal(toJson(record), `approval:${id}`)]);
    });
  }

  async release(id: string): Promise<void> {
    await this.#db.query(`UPDATE ${this.#db.s}.lousho_approvals SET status = 'pending' WHERE id = $1 AND status = 'resolving'`, [id]);
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.#db.query(`DELETE FROM ${this.#db.s}.lousho_approvals WHERE session_id = $1`, [sessionId]);
  }
}

export async function loadDriver(url: string): Promise<PgModule> {
  try {
    const mod = (await import('pg')) as unknown as { default?: PgModule } & Partial<PgModule>;
    const driver = mod.Pool ? (mod as PgModule) : mod.default;
    if (!driver?.Pool) throw new Error('the pg module has no Pool');
    return driver;
  } catch (error) {
    throw driverMissingError(url, error);
  }
}

/**
 * Sessions, checkpoints and approvals in PostgreSQL, shared by any number of server processes
 * (Node only; needs `pg@8`). Leases are timed by the database's clock; events, stop requests and
 * lease hand-overs reach the other processes through the database (`LISTEN/NOTIFY`, see `signals`).
 * The schema is versioned (table `lousho_schema`) and migrated at `connect()`, in one transaction;
 * a schema from a newer package is refused with an error that says what to do.
 *
 * ```ts
 * const store = await PostgresStore.connect(process.env.DATABASE_URL!);
 * const agent = createAgent({ provider, tools, store });
 * ```
 */
export class PostgresStore implements CompleteAgentStore {
  /** The connection string without its password (for messages and logs). */
  readonly url: string;
  readonly schema: string;
  readonly sessions: PostgresSessionStore;
  readonly checkpoints: PostgresCheckpointStore;
  readonly approvals: PostgresApprovalStore;
  /** Webhook replay protection in the database (survives restarts, shared by processes): pass it as `replayStore`. */
  readonly replays: PostgresReplayStore;
  /** Cross-process signals (undefined with `noSignals`). */
  readonly signals: PostgresSignals | undefined;
  readonly #pool: PgPool;
  readonly #ownsPool: boolean;
  #closed = false;

  private constructor(pool: PgPool, ownsPool: boolean, url: string, schema: string, leaseMs: number, signals: boolean, sealer: TextSealer) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.url = url;
    this.schema = schema;
    const db = new Db(pool, schema, url, sealer);
    this.sessions = new PostgresSessionStore(db);
    this.checkpoints = new PostgresCheckpointStore(db, leaseMs);
    this.approvals = new PostgresApprovalStore(db);
    this.replays = new PostgresReplayStore(db);
    this.signals = signals ? new PostgresSignals(pool, schema, db.guard) : undefined;
  }

  /**
   * Connects, checks and migrates the schema, and starts listening for signals. Rejects with
   * `LOUSHO_STORE_UNAVAILABLE` (the URL named without its password) when the database cannot be
   * reached, and `LOUSHO_STORE_VERSION` when its schema is newer than this package.
   */
  static async connect(target: string | PostgresStoreOptions): Promise<PostgresStore> {
    const options: PostgresStoreOptions = typeof target === 'string' ? { connectionString: target } : { ...target };
    const url = redactUrl(options.connectionString);
    const schema = options.schema ?? 'public';
    const invalid = (message: string): PostgresStoreError =>
      new PostgresStoreError(ERROR_CODES.LOUSHO_INVALID_CONFIG, url, message, 'See docs/postgres.md for the options.');
    if (!options.pool && (typeof options.connectionString !== 'string' || options.connectionString.length === 0)) {
      throw invalid('PostgresStore.connect() needs a connection string (e.g. process.env.DATABASE_URL) or a `pool`.');
    }
    if (!checkSchemaName(schema)) throw invalid(`The schema name '${schema}' is not allowed: use letters, digits and _ (at most 40, not starting with a digit).`);
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!(Number.isFinite(leaseMs) && leaseMs > 0)) throw invalid(`leaseMs must be a positive number of milliseconds, got ${String(leaseMs)}.`);
    // A bad key is refused before any connection is made.
    const sealer = textSealer(options.encryption, `PostgresStore ${url}`);

    let pool = options.pool;
    const ownsPool = !pool;
    if (!pool) {
      const driver = await loadDriver(url);
      pool = new driver.Pool({
        connectionString: options.connectionString,
        max: options.max ?? 10,
        connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
        application_name: 'lousho-store',
      });
    }
    // An idle connection that breaks (a server restart) is dropped by the pool; without this
    // listener the error would end the process.
    pool.on('error', () => {});
    let client: PgPoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      if (ownsPool) await pool.end().catch(() => {});
      throw unreachableError(url, error);
    }
    try {
      await migrate(client, schema, url);
      client.release();
    } catch (error) {
      client.release(isConnectionError(error) ? (error as Error) : false);
      if (ownsPool) await pool.end().catch(() => {});
      if (SDKError.is(error)) throw error;
      throw isConnectionError(error) ? unreachableError(url, error) : queryFailedError(url, error);
    }
    const store = new PostgresStore(pool, ownsPool, url, schema, leaseMs, options.noSignals !== true, sealer);
    try {
      await store.signals?.start();
    } catch (error) {
      await store.close();
      throw isConnectionError(error) ? unreachableError(url, error) : queryFailedError(url, error);
    }
    return store;
  }

  /** Stops listening and closes the pool (unless it was yours). The store cannot be used afterwards. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.signals?.close();
    if (this.#ownsPool) await this.#pool.end().catch(() => {});
  }
}

