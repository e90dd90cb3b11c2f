// The contract of webhook replay protection's memory: `@lousho/node`'s channels check signatures
// against it, the SQLite and PostgreSQL stores implement it (`store.replays`).
/**
 * Where webhook replay protection remembers the signed requests it accepted, until their window
 * closes. In memory by default (per process, lost on restart); `SqliteStore.replays` and
 * `PostgresStore.replays` keep them in the session store, so a replay is refused after a restart
 * and by every process that shares the store.
 */
export interface ReplayStore {
  /**
   * Records `key` until `expiresAt` (epoch ms). True when it was not recorded yet (or its record
   * expired); false for a replay. Atomic: of two processes claiming one key, one gets true.
   */
  claim(key: string, expiresAt: number): boolean | Promise<boolean>;
}
