import { ERROR_CODES, SDKError } from '@lousho/protocol';

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

/**
 * Which sessions an in-memory store keeps: the most recently used ones, up to `maxSessions`, and
 * with `idleTtlMs` only those used within that time. Sessions are kept in order of last use (a
 * Map's insertion order), so the oldest is found first and each use costs O(1). Nothing runs on a
 * timer: limits are applied whenever the store is used. A session that `canForget` refuses is
 * counted as just used and stays.
 */
export class SessionRetention {
  readonly #lastUse = new Map<string, number>();
  readonly #options: SessionRetentionOptions;
  readonly #listeners = new Set<(id: string) => void>();
  /** The session used last (the end of `#lastUse`). */
  #newest: string | undefined;

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
    // The common case, the session used last is used again (a run appending its events): already last.
    if (this.#newest === id && this.#lastUse.has(id)) {
      if (now !== 0) this.#lastUse.set(id, now);
      return;
    }
    this.#lastUse.delete(id);
    this.#lastUse.set(id, now);
    this.#newest = id;
    if (this.#lastUse.size > this.#options.maxSessions) this.#trim(now);
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
    return this.#lastUse.has(id);
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
    for (let budget = this.#lastUse.size; budget > 0; budget--) {
      const oldest = this.#lastUse.entries().next();
      if (oldest.done || now - oldest.value[1] < ttl) return;
      this.#evictOrKeep(oldest.value[0], now);
    }
  }

  /**
   * Forgets the oldest sessions over the limit, looking at `TRIM_LOOK_AHEAD` sessions at most. Past
   * the limit with runs going on (sessions that must be kept), a use that walked every session made
   * each event cost O(sessions); a session kept moves to the end, so the next uses look further,
   * and more are forgotten per use than a use can add.
   */
  #trim(now: number): void {
    for (let budget = TRIM_LOOK_AHEAD; budget > 0 && this.#lastUse.size > this.#options.maxSessions; budget--) {
      const oldest = this.#lastUse.keys().next();
      if (oldest.done) return;
      this.#evictOrKeep(oldest.value, now);
    }
  }

  #evictOrKeep(id: string, now: number): void {
    this.#lastUse.delete(id);
    if (!this.#options.canForget(id)) {
      this.#lastUse.set(id, now);
      this.#newest = id;
      return;
    }
    this.#options.forget(id);
    for (const listener of this.#listeners) {
      try {
        listener(id);
      } catch {
        // A listener's failure must not keep the store from working.
      }
    }
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
