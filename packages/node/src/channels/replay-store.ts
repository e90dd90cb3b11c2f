import type { ReplayStore } from '@lousho/core';

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
