import type { SqliteDatabase as Database } from './driver.js';
import { corruptFileError, newerSchemaError } from './errors.js';

/**
 * The schema, as migrations: migration N brings a file from `user_version` N-1 to N. A released
 * migration never changes; a new schema is a new entry (and older packages then refuse the file
 * with a clear error instead of misreading it).
 */
export const MIGRATIONS: readonly string[] = [
  // 1: sessions, their event logs, checkpoints (transcript rows + run state), approvals.
  `
  CREATE TABLE lousho_sessions (
    id TEXT PRIMARY KEY,
    owner TEXT,
    status TEXT NOT NULL,
    pending_approval TEXT,
    run_start_index INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE lousho_events (
    session_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
  ) WITHOUT ROWID;
  CREATE TABLE lousho_checkpoints (
    session_id TEXT PRIMARY KEY,
    lease_holder TEXT,
    lease_expires INTEGER,
    run_start TEXT,
    run_progress TEXT,
    message_count INTEGER NOT NULL DEFAULT 0,
    step_usage_count INTEGER NOT NULL DEFAULT 0,
    tool_call_count INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE lousho_messages (
    session_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (session_id, idx)
  ) WITHOUT ROWID;
  CREATE TABLE lousho_run_items (
    session_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    idx INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (session_id, kind, idx)
  ) WITHOUT ROWID;
  CREATE TABLE lousho_approvals (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX lousho_approvals_by_session ON lousho_approvals (session_id, status, created_at);
  `,
  // 2: thread lists: a session's title, and its principal's sessions by activity (a page is an index range scan).
  `
  ALTER TABLE lousho_sessions ADD COLUMN title TEXT;
  CREATE INDEX lousho_sessions_by_activity ON lousho_sessions (owner, updated_at, id);
  `,
  // 3: a thread list's usage: the JSON of the session's usage tally (token counts, not content).
  `
  ALTER TABLE lousho_sessions ADD COLUMN usage TEXT;
  `,
];

/** The schema version this package writes; a store written by a newer version is refused with `LOUSHO_STORE_VERSION`. */
export const SCHEMA_VERSION = MIGRATIONS.length;

const TABLES = ['lousho_sessions', 'lousho_events', 'lousho_checkpoints', 'lousho_messages', 'lousho_run_items', 'lousho_approvals'];

/**
 * Checks the file and brings its schema up to date. Refuses (with the file's name and what to do)
 * a file that is not an SQLite database, one from a newer package, and one whose tables are not
 * ours; never resets anything.
 */
export function migrate(db: Database, path: string): void {
  let version: number;
  let tables: string[];
  try {
    version = db.pragma('user_version', { simple: true }) as number;
    tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
  } catch (error) {
    throw corruptFileError(path, 'it cannot be read as an SQLite database', error);
  }
  if (version > SCHEMA_VERSION) throw newerSchemaError(path, version, SCHEMA_VERSION);
  if (version === 0 && tables.length > 0) {
    throw corruptFileError(path, `it is an SQLite database of something else (tables: ${tables.slice(0, 5).join(', ')})`);
  }
  if (version > 0) {
    const missing = TABLES.filter((t) => !tables.includes(t));
    if (missing.length > 0) throw corruptFileError(path, `schema version ${version} but table ${missing[0]} is missing`);
  }
  for (let next = version + 1; next <= SCHEMA_VERSION; next++) {
    // Each step is one transaction: a crash mid-migration leaves the file at the previous version.
    db.transaction(() => {
      db.exec(MIGRATIONS[next - 1]!);
      db.pragma(`user_version = ${next}`);
    }).immediate();
  }
}
