import type { PgPoolClient } from './driver.js';
import { foreignSchemaError, newerSchemaError } from './errors.js';

/** `"name"`: a schema name as an SQL identifier. Names are checked (`checkSchemaName`) before use. */
export const ident = (name: string): string => `"${name}"`;

/** Schema names the store accepts: plain identifiers, short enough to build channel names from. */
export function checkSchemaName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(name);
}

/** Channel names for the signals of a schema's store (quoted identifiers in LISTEN, text in pg_notify). */
export const eventsChannel = (schema: string): string => `lousho_events:${schema}`;
export const stopChannel = (schema: string): string => `lousho_stop:${schema}`;

/**
 * The schema, as migrations: migration N brings a store from version N-1 to N (each is SQL for the
 * given schema). A released migration never changes; a new schema is a new entry, and older
 * packages then refuse the database with a clear error instead of misreading it.
 * Times are milliseconds since the epoch by the database's clock (`lousho_now_ms()`), so leases
 * do not depend on the clocks of the server processes.
 */
export const MIGRATIONS: readonly ((schema: string) => string)[] = [
  // 1: sessions and their event logs, checkpoints (transcript rows + run state), approvals, and the
  // two write paths of a turn as functions (one round trip each).
  (schema) => {
    const s = ident(schema);
    const events = `'${eventsChannel(schema)}'`;
    return `
  CREATE TABLE ${s}.lousho_sessions (
    id text PRIMARY KEY,
    owner text,
    status text NOT NULL,
    pending_approval text,
    run_start_index integer NOT NULL,
    last_seq bigint NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
  );
  CREATE INDEX lousho_sessions_by_owner ON ${s}.lousho_sessions (owner, created_at);
  CREATE TABLE ${s}.lousho_events (
    session_id text NOT NULL,
    seq bigint NOT NULL,
    body text NOT NULL,
    PRIMARY KEY (session_id, seq)
  );
  CREATE TABLE ${s}.lousho_checkpoints (
    session_id text PRIMARY KEY,
    lease_holder text,
    lease_expires bigint,
    run_start text,
    run_progress text,
    message_count integer NOT NULL DEFAULT 0,
    step_usage_count integer NOT NULL DEFAULT 0,
    tool_call_count integer NOT NULL DEFAULT 0
  );
  CREATE TABLE ${s}.lousho_messages (
    session_id text NOT NULL,
    idx integer NOT NULL,
    body text NOT NULL,
    PRIMARY KEY (session_id, idx)
  );
  CREATE TABLE ${s}.lousho_run_items (
    session_id text NOT NULL,
    kind text NOT NULL,
    idx integer NOT NULL,
    body text NOT NULL,
    PRIMARY KEY (session_id, kind, idx)
  );
  CREATE TABLE ${s}.lousho_approvals (
    id text PRIMARY KEY,
    session_id text NOT NULL,
    status text NOT NULL,
    created_at bigint NOT NULL,
    body text NOT NULL
  );
  CREATE INDEX lousho_approvals_by_session ON ${s}.lousho_approvals (session_id, status, created_at);

  CREATE FUNCTION ${s}.lousho_now_ms() RETURNS bigint LANGUAGE sql VOLATILE
    AS $f$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $f$;

  -- Numbers and appends a batch of events, fenced by the lease when p_holder is given (LS001),
  -- and notifies followers in other processes (delivered when the transaction commits).
  CREATE FUNCTION ${s}.lousho_append_events(p_id text, p_holder text, p_reset boolean, p_bodies text[])
    RETURNS bigint LANGUAGE plpgsql SET search_path = ${s} AS $f$
  DECLARE
    v_holder text;
    v_first bigint;
    v_now bigint := lousho_now_ms();
    v_n integer := coalesce(cardinality(p_bodies), 0);
  BEGIN
    IF p_holder IS NOT NULL THEN
      SELECT lease_holder INTO v_holder FROM lousho_checkpoints WHERE session_id = p_id FOR SHARE;
      IF v_holder IS DISTINCT FROM p_holder THEN
        RAISE EXCEPTION 'lease lost on session %', p_id USING ERRCODE = 'LS001';
      END IF;
    END IF;
    INSERT INTO lousho_sessions (id, owner, status, pending_approval, run_start_index, last_seq, created_at, updated_at)
      VALUES (p_id, NULL, 'idle', NULL, 0, 0, v_now, v_now) ON CONFLICT (id) DO NOTHING;
    UPDATE lousho_sessions SET last_seq = last_seq + v_n, updated_at = v_now WHERE id = p_id RETURNING last_seq - v_n INTO v_first;
    IF p_reset THEN
      DELETE FROM lousho_events WHERE session_id = p_id;
    END IF;
    INSERT INTO lousho_events (session_id, seq, body)
      SELECT p_id, v_first + t.o, t.b FROM unnest(p_bodies) WITH ORDINALITY AS t(b, o);
    IF v_n > 0 THEN
      PERFORM pg_notify(${events}, (v_first + v_n)::text || ' ' || p_id);
    END IF;
    RETURN v_first;
  END
  $f$;

  -- Writes one checkpoint delta under the lease (LS001 when p_holder does not hold it).
  CREATE FUNCTION ${s}.lousho_save_checkpoint(
    p_id text, p_holder text, p_lease_ms bigint,
    p_msg_keep integer, p_msgs text[], p_start text, p_progress text,
    p_step_keep integer, p_steps text[], p_tool_keep integer, p_tools text[]
  ) RETURNS void LANGUAGE plpgsql SET search_path = ${s} AS $f$
  DECLARE
    r lousho_checkpoints%ROWTYPE;
    v_from integer;
    v_msgs integer;
    v_steps integer;
    v_tools integer;
  BEGIN
    SELECT * INTO r FROM lousho_checkpoints WHERE session_id = p_id FOR UPDATE;
    IF NOT FOUND OR r.lease_holder IS DISTINCT FROM p_holder THEN
      RAISE EXCEPTION 'lease lost on session %', p_id USING ERRCODE = 'LS001';
    END IF;
    v_from := least(p_msg_keep, r.message_count);
    IF v_from < r.message_count THEN
      DELETE FROM lousho_messages WHERE session_id = p_id AND idx >= v_from;
    END IF;
    INSERT INTO lousho_messages (session_id, idx, body) SELECT p_id, v_from + t.o - 1, t.b FROM unnest(p_msgs) WITH ORDINALITY AS t(b, o);
    v_msgs := v_from + coalesce(cardinality(p_msgs), 0);
    v_steps := r.step_usage_count;
    v_tools := r.tool_call_count;
    IF p_start IS NOT NULL THEN
      DELETE FROM lousho_run_items WHERE session_id = p_id;
      v_steps := 0;
      v_tools := 0;
    ELSIF r.run_start IS NULL THEN
      RAISE EXCEPTION 'The first checkpoint of a session must carry the run start.' USING ERRCODE = 'LS002';
    END IF;
    v_from := least(p_step_keep, v_steps);
    IF v_from < v_steps THEN
      DELETE FROM lousho_run_items WHERE session_id = p_id AND kind = 'step' AND idx >= v_from;
    END IF;
    INSERT INTO lousho_run_items (session_id, kind, idx, body) SELECT p_id, 'step', v_from + t.o - 1, t.b FROM unnest(p_steps) WITH ORDINALITY AS t(b, o);
    v_steps := v_from + coalesce(cardinality(p_steps), 0);
    v_from := least(p_tool_keep, v_tools);
    IF v_from < v_tools THEN
      DELETE FROM lousho_run_items WHERE session_id = p_id AND kind = 'tool' AND idx >= v_from;
    END IF;
    INSERT INTO lousho_run_items (session_id, kind, idx, body) SELECT p_id, 'tool', v_from + t.o - 1, t.b FROM unnest(p_tools) WITH ORDINALITY AS t(b, o);
    v_tools := v_from + coalesce(cardinality(p_tools), 0);
    UPDATE lousho_checkpoints
      SET lease_expires = lousho_now_ms() + p_lease_ms, run_start = coalesce(p_start, run_start), run_progress = p_progress,
          message_count = v_msgs, step_usage_count = v_steps, tool_call_count = v_tools
      WHERE session_id = p_id;
  END
  $f$;

  -- Takes the lease for p_holder unless another holder's lease is unexpired (or p_force).
  CREATE FUNCTION ${s}.lousho_acquire(p_id text, p_holder text, p_force boolean, p_lease_ms bigint)
    RETURNS TABLE (acquired boolean, existed boolean) LANGUAGE plpgsql SET search_path = ${s} AS $f$
  DECLARE
    r lousho_checkpoints%ROWTYPE;
    v_now bigint := lousho_now_ms();
  BEGIN
    SELECT * INTO r FROM lousho_checkpoints WHERE session_id = p_id FOR UPDATE;
    IF NOT FOUND THEN
      INSERT INTO lousho_checkpoints (session_id, lease_holder, lease_expires) VALUES (p_id, p_holder, v_now + p_lease_ms)
        ON CONFLICT (session_id) DO NOTHING;
      IF FOUND THEN
        RETURN QUERY SELECT true, false;
        RETURN;
      END IF;
      -- Someone created it in between: decide on the row they wrote.
      SELECT * INTO r FROM lousho_checkpoints WHERE session_id = p_id FOR UPDATE;
    END IF;
    IF r.lease_holder IS NOT NULL AND r.lease_holder <> p_holder AND coalesce(r.lease_expires, 0) > v_now AND NOT p_force THEN
      RETURN QUERY SELECT false, true;
      RETURN;
    END IF;
    UPDATE lousho_checkpoints SET lease_holder = p_holder, lease_expires = v_now + p_lease_ms WHERE session_id = p_id;
    RETURN QUERY SELECT true, true;
  END
  $f$;
  `;
  },
  // 2: thread lists: a session's title, and its principal's sessions by activity (a page is an index range scan).
  (schema) => `
  ALTER TABLE ${ident(schema)}.lousho_sessions ADD COLUMN title text;
  CREATE INDEX lousho_sessions_by_activity ON ${ident(schema)}.lousho_sessions (owner, updated_at DESC, id DESC);
  `,
  // 3: a thread list's usage: the JSON of the session's usage tally (token counts, not content).
  (schema) => `
  ALTER TABLE ${ident(schema)}.lousho_sessions ADD COLUMN usage text;
  `,
];

/** The schema version this package writes; a store written by a newer version is refused with `LOUSHO_STORE_VERSION`. */
export const SCHEMA_VERSION = MIGRATIONS.length;

const TABLES = ['lousho_sessions', 'lousho_events', 'lousho_checkpoints', 'lousho_messages', 'lousho_run_items', 'lousho_approvals'];

/**
 * Brings the schema up to date, in one transaction under an advisory lock (so processes starting
 * together migrate once). Refuses, changing nothing, a schema from a newer package and one whose
 * Lousho tables are there without a version (not ours, or damaged); never resets anything.
 */
export async function migrate(client: PgPoolClient, schema: string, url: string): Promise<void> {
  const s = ident(schema);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`lousho-migrate:${schema}`]);
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (exists.rows.length === 0) await client.query(`CREATE SCHEMA ${s}`);
    const tables = (await client.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1', [schema])).rows.map((r) => r.tablename);
    let version = 0;
    if (tables.includes('lousho_schema')) {
      const row = (await client.query<{ version: number }>(`SELECT version FROM ${s}.lousho_schema`)).rows[0];
      version = row?.version ?? 0;
    } else if (tables.some((t) => TABLES.includes(t))) {
      throw foreignSchemaError(url, schema, 'Lousho tables without a lousho_schema version table');
    }
    if (version > SCHEMA_VERSION) throw newerSchemaError(url, schema, version, SCHEMA_VERSION);
    if (version > 0) {
      const missing = TABLES.filter((t) => !tables.includes(t));
      if (missing.length > 0) throw foreignSchemaError(url, schema, `schema version ${version} but table ${missing[0]} is missing`);
    }
    if (version < SCHEMA_VERSION) {
      if (!tables.includes('lousho_schema')) await client.query(`CREATE TABLE ${s}.lousho_schema (version integer NOT NULL)`);
      for (let next = version + 1; next <= SCHEMA_VERSION; next++) await client.query(MIGRATIONS[next - 1]!(schema));
      await client.query(`DELETE FROM ${s}.lousho_schema`);
      await client.query(`INSERT INTO ${s}.lousho_schema (version) VALUES ($1)`, [SCHEMA_VERSION]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
