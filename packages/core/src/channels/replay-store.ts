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

/** Signatures accepted inside their window, in this process: a bounded map, oldest dropped first. */
export class MemoryReplayStore implements ReplayStore {
  readonly #expiry = new Map<string, number>();
  constructor(readonly limit = 10_000) {}

  claim(key: string, expiresAt: number): boolean {
    const now = Date.now();
    const known = this.#expiry.get(key);
    if (known !== undefined && known >= now) return false;
    this.#expiry.delete(key);
    for (const [oldest, expiry] of this.#expiry) {
      if (this.#expiry.size < this.limit && expiry >= now) break;
      this.#expiry.delete(oldest);
    }
    this.#expiry.set(key, expiresAt);
    return true;
  }
}
