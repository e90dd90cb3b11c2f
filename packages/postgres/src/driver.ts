/**
 * The part of node-postgres (`pg@8`) this store uses. Declared here so the published types do not
 * depend on `@types/pg`; a `pg.Pool` satisfies `PgPool`.
 */
export interface PgQueryResult<R = Record<string, unknown>> {
  rows: R[];
  rowCount: number | null;
}

export interface PgNotification {
  channel: string;
  payload?: string;
}

/** Anything the store sends SQL through: the pool, or one checked-out connection. */
export interface PgQueryable {
  /** Runs one statement with `$1`-style parameters (never string-built SQL); rejects with node-postgres' error. */
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgQueryResult<R>>;
}

/** One connection checked out of a `PgPool`: the store holds one to `LISTEN` for new events, and one per transaction. */
export interface PgPoolClient extends PgQueryable {
  /** Back to the pool; with an error, the connection is destroyed instead. */
  release(error?: Error | boolean): void;
  /**
   * A `NOTIFY` on a channel the connection `LISTEN`s to: how one process tells the others of new
   * events, stop requests and lease hand-overs.
   */
  on(event: 'notification', listener: (message: PgNotification) => void): unknown;
  /** The connection failed (the store's listener then reconnects after a pause). */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** The connection closed (the store's listener then reconnects after a pause). */
  on(event: 'end', listener: () => void): unknown;
  /** Drops the store's listeners before the connection goes back to the pool or is closed. */
  removeAllListeners(event?: string): unknown;
}

/**
 * The connection pool the PostgreSQL store runs on: a `pg.Pool` (pass your own to share it, or the
 * store makes one from `connectionString`).
 */
export interface PgPool extends PgQueryable {
  /** Checks out a connection; the store always `release()`s it. Rejects when the database cannot be reached. */
  connect(): Promise<PgPoolClient>;
  /** Closes every connection: called by the store's `close()` only for a pool the store made itself. */
  end(): Promise<void>;
  /** An idle connection failed (the server restarted, the network dropped): the store listens so that this does not crash the process. */
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface PgModule {
  Pool: new (config: Record<string, unknown>) => PgPool;
}
