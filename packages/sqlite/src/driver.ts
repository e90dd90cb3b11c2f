/**
 * The part of better-sqlite3's API this store uses. Declared here so the published types do not
 * depend on `@types/better-sqlite3`; better-sqlite3@12 satisfies it.
 */
export interface SqliteStatement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface SqliteTransaction<F extends (...args: never[]) => unknown> {
  (...args: Parameters<F>): ReturnType<F>;
  immediate(...args: Parameters<F>): ReturnType<F>;
}

export interface SqliteDatabase {
  readonly open: boolean;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): SqliteTransaction<F>;
  close(): unknown;
}

export type SqliteDatabaseConstructor = new (path: string) => SqliteDatabase;
