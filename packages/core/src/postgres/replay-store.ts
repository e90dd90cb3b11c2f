import type { ReplayStore } from '../stores/replay-store.js';

/** Expired records are swept every this many claims (each claim also replaces its own expired record). */
const SWEEP_EVERY = 500;

interface Queryable {
  readonly s: string;
  query<R = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

/**
 * Webhook replay protection in PostgreSQL (`PostgresStore.replays`): survives restarts, and every
 * process on the database and schema shares it. Its table is made on first use (it is not part of
 * the session schema's versions: nothing else reads it).
 */
export class PostgresReplayStore implements ReplayStore {
  readonly #db: Queryable;
  #ready: Promise<void> | undefined;
  #claims = 0;

  constructor(db: Queryable) {
    this.#db = db;
  }

  async claim(key: string, expiresAt: number): Promise<boolean> {
    await (this.#ready ??= this.#ensureTable());
    const now = Date.now();
    const table = `${this.#db.s}.lousho_webhook_replays`;
    if (++this.#claims % SWEEP_EVERY === 0) await this.#db.query(`DELETE FROM ${table} WHERE expires_at < $1`, [now]);
    // One statement, so two processes cannot both take a key: a new key is inserted, an expired one renewed.
    const { rowCount } = await this.#db.query(
      `INSERT INTO ${table} (key, expires_at) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE ${table}.expires_at < $3`,
      [key, expiresAt, now],
    );
    return rowCount === 1;
  }

  async #ensureTable(): Promise<void> {
    try {
      await this.#db.query(`CREATE TABLE IF NOT EXISTS ${this.#db.s}.lousho_webhook_replays (key TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)`);
    } catch (error) {
      this.#ready = undefined;
      // Two processes creating it at once: the loser sees a duplicate; the table is there.
      const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
      if (code !== '23505' && code !== '42P07') throw error;
    }
  }
}
