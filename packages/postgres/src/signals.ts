import type { StoreSignals } from '@lousho/core';
import type { PgNotification, PgPool, PgPoolClient } from './driver.js';
import { eventsChannel, stopChannel } from './schema.js';

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 2000;

/**
 * Cross-process signals over PostgreSQL `LISTEN/NOTIFY`, on one dedicated connection per store.
 * `lousho_append_events` notifies `lousho_events:<schema>` with `"<lastSeq> <sessionId>"` when its
 * transaction commits; a stop request notifies `lousho_stop:<schema>` with the session id. The
 * listening connection is reopened (with back-off) when it breaks, and then every watcher is told
 * to read the store again, since notifications sent meanwhile are lost.
 */
export class PostgresSignals implements StoreSignals {
  readonly #pool: PgPool;
  readonly #events: string;
  readonly #stop: string;
  readonly #watchers = new Map<string, Set<() => void>>();
  readonly #stopListeners = new Set<(id: string) => void>();
  #client: PgPoolClient | undefined;
  #closed = false;
  #retryMs = RECONNECT_MIN_MS;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #guard: <T>(work: () => Promise<T>) => Promise<T>;

  constructor(pool: PgPool, schema: string, guard: <T>(work: () => Promise<T>) => Promise<T>) {
    this.#pool = pool;
    this.#guard = guard;
    this.#events = eventsChannel(schema);
    this.#stop = stopChannel(schema);
  }

  /** Opens the listening connection (at store start: a failure there is a failure to start). */
  async start(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      client.on('notification', (message) => this.#dispatch(message));
      client.on('error', () => this.#lost(client));
      client.on('end', () => this.#lost(client));
      await client.query(`LISTEN "${this.#events}"`);
      await client.query(`LISTEN "${this.#stop}"`);
    } catch (error) {
      client.removeAllListeners();
      client.release(true);
      throw error;
    }
    this.#client = client;
    this.#retryMs = RECONNECT_MIN_MS;
  }

  #lost(client: PgPoolClient): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.removeAllListeners();
    // A broken client must not go back to the pool as if it were healthy.
    client.on('error', () => {});
    try {
      client.release(true);
    } catch {
      // Already released.
    }
    this.#reconnectLater();
  }

  #reconnectLater(): void {
    if (this.#closed || this.#timer) return;
    const wait = this.#retryMs;
    this.#retryMs = Math.min(RECONNECT_MAX_MS, this.#retryMs * 2);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#closed) return;
      this.start().then(
        () => {
          // Anything appended while we were not listening was not announced: everyone reads again.
          for (const set of this.#watchers.values()) for (const changed of set) safely(changed);
        },
        () => this.#reconnectLater(),
      );
    }, wait);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #dispatch(message: PgNotification): void {
    const payload = message.payload ?? '';
    if (message.channel === this.#events) {
      const space = payload.indexOf(' ');
      const id = space >= 0 ? payload.slice(space + 1) : payload;
      const set = this.#watchers.get(id);
      if (set) for (const changed of [...set]) safely(changed);
    } else if (message.channel === this.#stop) {
      for (const stop of [...this.#stopListeners]) safely(() => stop(payload));
    }
  }

  watch(id: string, changed: () => void): () => void {
    let set = this.#watchers.get(id);
    if (!set) this.#watchers.set(id, (set = new Set()));
    set.add(changed);
    return () => {
      set.delete(changed);
      if (set.size === 0 && this.#watchers.get(id) === set) this.#watchers.delete(id);
    };
  }

  async requestStop(id: string): Promise<void> {
    await this.#guard(() => this.#pool.query('SELECT pg_notify($1, $2)', [this.#stop, id]));
  }

  onStopRequest(stop: (id: string) => void): () => void {
    this.#stopListeners.add(stop);
    return () => this.#stopListeners.delete(stop);
  }

  /** Closes the listening connection; no more signals arrive. */
  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => {});
      client.release(true);
    }
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // One failing listener must not keep the others from their signal.
  }
}
