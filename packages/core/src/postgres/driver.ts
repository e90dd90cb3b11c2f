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

export interface PgQueryable {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgQueryResult<R>>;
}

export interface PgPoolClient extends PgQueryable {
  /** Back to the pool; with an error, the connection is destroyed instead. */
  release(error?: Error | boolean): void;
  on(event: 'notification', listener: (message: PgNotification) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  removeAllListeners(event?: string): unknown;
}

export interface PgPool extends PgQueryable {
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface PgModule {
  Pool: new (config: Record<string, unknown>) => PgPool;
}
