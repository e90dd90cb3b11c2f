/** The part of the Web Locks API (`navigator.locks`) the store uses. */
export interface LockManagerLike {
  /** Takes the lock `name` and holds it until `callback`'s promise settles (the store's never does, so the page holds it for life). */
  request(name: string, callback: () => Promise<unknown>): Promise<unknown>;
  /** The locks held now, by any page or worker of the origin: the store reads which instances are alive from their names. */
  query(): Promise<{ held?: { name?: string }[] }>;
}

/** Which store instances (pages, workers) are alive now, as of `at` (by `Date.now()`). */
export interface LiveInstances {
  names: Set<string>;
  at: number;
}

/**
 * Tells whether the page that holds a lease still exists. A lease alone cannot: a page that is
 * reloaded or closed mid-run never releases it, and its session would look busy until the lease
 * runs out. So each store instance holds a Web Lock for as long as it lives (the browser releases
 * it when the page or worker goes away), and a lease names the instance that took it: a lease
 * whose instance's lock is gone is dead at once. Without Web Locks, leases only expire.
 */
export class PageLiveness {
  readonly instance: string;
  readonly #locks: LockManagerLike | undefined;
  readonly #prefix: string;
  /** Resolves once this instance's lock is held: a lease is only taken after that. */
  readonly ready: Promise<void>;

  constructor(databaseName: string, locks: LockManagerLike | undefined) {
    this.#locks = locks;
    this.#prefix = `lousho:indexeddb:${databaseName}:`;
    this.instance = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
    this.ready = locks
      ? new Promise<void>((resolve) => {
          // Held until the page goes away: the callback's promise never settles.
          locks.request(this.#prefix + this.instance, () => (resolve(), new Promise<never>(() => {}))).catch(() => resolve());
        })
      : Promise.resolve();
  }

  /** The instances alive now, or undefined without Web Locks (then every unexpired lease counts). */
  async live(): Promise<LiveInstances | undefined> {
    if (!this.#locks) return undefined;
    const at = Date.now();
    try {
      const { held = [] } = await this.#locks.query();
      const names = new Set<string>();
      for (const lock of held) if (lock.name?.startsWith(this.#prefix)) names.add(lock.name.slice(this.#prefix.length));
      return { names, at };
    } catch {
      return undefined;
    }
  }

  /**
   * Whether a lease is in force: unexpired, and held by this instance, by a live one, or taken or
   * renewed after the look at the live ones (its instance may have started since).
   */
  holds(lease: { expiresAt: number; instance?: string; renewedAt?: number } | undefined, live: LiveInstances | undefined, now: number): boolean {
    if (!lease || lease.expiresAt <= now) return false;
    if (!live || lease.instance === undefined || lease.instance === this.instance) return true;
    return live.names.has(lease.instance) || (lease.renewedAt ?? 0) >= live.at;
  }
}
