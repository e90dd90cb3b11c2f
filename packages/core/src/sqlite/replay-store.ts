import type { ReplayStore } from '../stores/replay-store.js';
import type { SqliteDatabase } from './driver.js';

/** Expired records are swept every this many claims (each claim also replaces its own expired record). */
const SWEEP_EVERY = 500;

/**
 * Webhook replay protection in the SQLite file (`SqliteStore.replays`): survives a restart, and
 * every process that opens the file shares it. Its table is made on first use (it is not part of the
 * session schema's versions: nothing else reads it).
 */
export class SqliteReplayStore implements ReplayStore {
  readonly #db: SqliteDatabase;
  readonly #guard: <T>(fn: () => T) => T;
  #ready = false;
  #claims = 0;

  constructor(db: SqliteDatabase, guard: <T>(fn: () => T) => T) {
    this.#db = db;
    this.#guard = guard;
  }

  claim(key: string, expiresAt: number): boolean {
    return this.#guard(() => {
      this.#ensureTable();
      const now = Date.now();
      if (++this.#claims % SWEEP_EVERY === 0) this.#db.prepare('DELETE FROM lousho_webhook_replays WHERE expires_at < ?').run(now);
      // One statement, so two processes cannot both take a key: a new key is inserted, an expired one renewed.
      const { changes } = this.#db
        .prepare('INSERT INTO lousho_webhook_replays (key, expires_at) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE lousho_webhook_replays.expires_at < ?')
        .run(key, expiresAt, now);
      return changes === 1;
    });
  }

  #ensureTable(): void {
    if (this.#ready) return;
    this.#db.exec('CREATE TABLE IF NOT EXISTS lousho_webhook_replays (key TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID');
    this.#ready = true;
  }
}
