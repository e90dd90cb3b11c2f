import { ERROR_CODES, SDKError } from '../errors.js';

export interface SessionRetentionOptions {
  /** The most sessions kept; past it, the least recently used finished one is forgotten. */
  maxSessions: number;
  /** A finished session unused for this long is forgotten (Infinity: never). */
  idleTtlMs: number;
  /** False while a session must be kept whatever its age (a run going on, a pause waiting for a decision). */
  canForget(id: string): boolean;
  /** Drops everything kept about the session. */
  forget(id: string): void;
}

/** How many sessions one use looks at to forget (see `#trim`). */
const TRIM_LOOK_AHEAD = 8;

/** A session in the order of use: a link of a list from the least to the most recently used. */
interface Use {
  readonly id: string;
  /** When it was last used (0 without an idle time: the order is enough). */
  at: number;
  older: Use | undefined;
  newer: Use | undefined;
}

/**
 * Which sessions an in-memory store keeps: the most recently used ones, up to `maxSessions`, and
 * with `idleTtlMs` only those used within that time. Sessions are kept in a list in order of last
 * use, so the oldest is found first and a use costs O(1): moving a link, where moving a `Map` entry
 * to its end (a delete and a set) cost about 230 ns with 1,000 sessions, on every event of
 * sessions that stream at once. Nothing runs on a timer: limits are applied whenever the store is
 * used. A session that `canForget` refuses is counted as just used and stays.
 */
export class SessionRetention {
  readonly #uses = new Map<string, Use>();
  readonly #options: SessionRetentionOptions;
  readonly #listeners = new Set<(id: string) => void>();
  /** The least recently used session. */
  #oldest: Use | undefined;
  /** The most recently used session. */
  #newest: Use | undefined;

  constructor(options: SessionRetentionOptions) {
    this.#options = options;
  }

  /**
   * Records a use of session `id` (creating its entry), after forgetting the sessions whose idle
   * time ran out, `id` included: a session past its time is gone even if asked for again.
   */
  touch(id: string): void {
    const now = this.#now();
    this.#expire(now);
    const use = this.#uses.get(id);
    if (use) {
      use.at = now;
      // The common case, the session used last is used again (a run appending its events): already last.
      if (use !== this.#newest) this.#append(this.#unlink(use));
      return;
    }
    const created: Use = { id, at: now, older: undefined, newer: undefined };
    this.#uses.set(id, created);
    this.#append(created);
    if (this.#uses.size > this.#options.maxSessions) this.#trim(now);
  }

  /** Applies the idle time without recording a use (a read of a session that may be gone). */
  sweep(): void {
    if (this.#options.idleTtlMs !== Infinity) this.#expire(this.#now());
  }

  /** The time, when an idle time is to be kept (0 otherwise: the order of use is enough). */
  #now(): number {
    return this.#options.idleTtlMs === Infinity ? 0 : Date.now();
  }

  /** Whether session `id` is tracked. */
  has(id: string): boolean {
    return this.#uses.has(id);
  }

  /** Calls `listener` with the id of every session forgotten from now on. */
  onForget(listener: (id: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #expire(now: number): void {
    const ttl = this.#options.idleTtlMs;
    if (ttl === Infinity) return;
    // Oldest first; each entry is visited at most once (a kept one moves to the end as used now).
    for (let budget = this.#uses.size; budget > 0; budget--) {
      const oldest = this.#oldest;
      if (!oldest || now - oldest.at < ttl) return;
      this.#evictOrKeep(oldest, now);
    }
  }

  /**
   * Forgets the oldest sessions over the limit, looking at `TRIM_LOOK_AHEAD` sessions at most. Past
   * the limit with runs going on (sessions that must be kept), a use that walked every session made
   * each event cost O(sessions); a session kept moves to the end, so the next uses look further,
   * and more are forgotten per use than a use can add.
   */
  #trim(now: number): void {
    for (let budget = TRIM_LOOK_AHEAD; budget > 0 && this.#uses.size > this.#options.maxSessions; budget--) {
      const oldest = this.#oldest;
      if (!oldest) return;
      this.#evictOrKeep(oldest, now);
    }
  }

  #evictOrKeep(use: Use, now: number): void {
    this.#unlink(use);
    if (!this.#options.canForget(use.id)) {
      use.at = now;
      this.#append(use);
      return;
    }
    this.#uses.delete(use.id);
    this.#options.forget(use.id);
    for (const listener of this.#listeners) {
      try {
        listener(use.id);
      } catch {
        // A listener's failure must not keep the store from working.
      }
    }
  }

  /** Takes `use` out of the list. */
  #unlink(use: Use): Use {
    if (use.older) use.older.newer = use.newer;
    else this.#oldest = use.newer;
    if (use.newer) use.newer.older = use.older;
    else this.#newest = use.older;
    use.older = use.newer = undefined;
    return use;
  }

  /** Puts `use` at the end of the list (used now). */
  #append(use: Use): void {
    use.older = this.#newest;
    if (this.#newest) this.#newest.newer = use;
    else this.#oldest = use;
    this.#newest = use;
  }
}

/** Checks a `maxSessions` / `idleTtlMs` option: a positive integer / number, or Infinity. */
export function retentionLimit(value: number | undefined, fallback: number, name: 'maxSessions' | 'idleTtlMs'): number {
  if (value === undefined) return fallback;
  const ok = value === Infinity || (typeof value === 'number' && value > 0 && (name === 'idleTtlMs' || Number.isInteger(value)));
  if (!ok) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `memoryStore: ${name} must be a positive ${name === 'maxSessions' ? 'integer' : 'number'} or Infinity, got ${String(value)}.`, {
      hint: name === 'maxSessions' ? 'Leave it out for the default (1000), or pass Infinity to keep every session.' : 'Leave it out to keep sessions whatever their age, or pass a number of milliseconds.',
    });
  }
  return value;
}
