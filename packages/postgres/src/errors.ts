import { ERROR_CODES, SDKError } from '@lousho/core';

/** A problem with the PostgreSQL store; `url` names the database without its password. */
export class PostgresStoreError extends SDKError {
  readonly url: string;
  constructor(code: string, url: string, message: string, hint: string, cause?: unknown) {
    super(code, message, { hint, ...(cause !== undefined ? { cause } : {}) });
    this.name = 'PostgresStoreError';
    this.url = url;
  }
}

/**
 * The connection string as it may be shown: the password (in the URL or as a `password=` parameter)
 * replaced by `***`. Never throws.
 */
export function redactUrl(connection: string | undefined): string {
  if (!connection) return '(the pool you passed)';
  try {
    const url = new URL(connection);
    if (url.password) url.password = '***';
    for (const key of [...url.searchParams.keys()]) if (/pass/i.test(key)) url.searchParams.set(key, '***');
    return url.toString().replace('%2A%2A%2A', '***');
  } catch {
    // libpq key=value form, or something else: hide anything that looks like a password.
    return connection.replace(/(pass(?:word)?\s*=\s*)('[^']*'|\S+)/gi, '$1***').replace(/(:\/\/[^:/@\s]+:)[^@\s]*@/, '$1***@');
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', '57P01', '57P02', '57P03']);

/** True when the error means the database cannot be reached (or the connection broke), not that a query was wrong. */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (CONNECTION_CODES.has(code) || code.startsWith('08')) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|connection timeout|timeout expired|Client has encountered a connection error|Connection is closed|not queryable/i.test(message);
}

function detailOf(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' && e.message ? e.message : String(error);
  return typeof e?.code === 'string' && !message.includes(e.code) ? `${message} (${e.code})` : message;
}

export function unreachableError(url: string, error: unknown): PostgresStoreError {
  return new PostgresStoreError(
    ERROR_CODES.LOUSHO_STORE_UNAVAILABLE,
    url,
    `Cannot connect to PostgreSQL at ${url}: ${detailOf(error)}.`,
    'Check that the server is running and reachable from here, and that DATABASE_URL (host, port, user, password, database) is right.',
    error,
  );
}

export function connectionLostError(url: string, error: unknown): PostgresStoreError {
  return new PostgresStoreError(
    ERROR_CODES.LOUSHO_STORE_UNAVAILABLE,
    url,
    `Lost the connection to PostgreSQL at ${url}: ${detailOf(error)}. The session keeps its last checkpoint.`,
    'Once the database is back, send the next message or call agent.resume(sessionId): the run goes on from its last checkpoint.',
    error,
  );
}

export function queryFailedError(url: string, error: unknown): PostgresStoreError {
  return new PostgresStoreError(
    ERROR_CODES.LOUSHO_STORE_UNAVAILABLE,
    url,
    `PostgreSQL at ${url} refused a store query: ${detailOf(error)}.`,
    "Check the database user's privileges on the store's schema and the server's log.",
    error,
  );
}

export function newerSchemaError(url: string, schema: string, found: number, supported: number): PostgresStoreError {
  return new PostgresStoreError(
    ERROR_CODES.LOUSHO_STORE_VERSION,
    url,
    `The Lousho tables in schema "${schema}" of ${url} have schema version ${found}, written by a newer version of @lousho/core; this version reads up to ${supported}. Nothing was changed.`,
    'Upgrade @lousho/core (and @lousho/build-ai-agent) in this process to the version the other processes run, or point it at another database or schema.',
  );
}

export function foreignSchemaError(url: string, schema: string, detail: string): PostgresStoreError {
  return new PostgresStoreError(
    ERROR_CODES.LOUSHO_STORE_CORRUPT,
    url,
    `Schema "${schema}" of ${url} is not a usable Lousho store (${detail}). Nothing was changed.`,
    'Point the store at another schema (the `schema` option) or database, or restore the Lousho tables from a backup.',
  );
}

export function driverMissingError(url: string, cause: unknown): PostgresStoreError {
  return new PostgresStoreError(
    ERROR_CODES.LOUSHO_STORE_UNAVAILABLE,
    url,
    'The PostgreSQL store needs the `pg` package (node-postgres), which is not installed.',
    'Install it next to @lousho/build-ai-agent: npm install pg@8',
    cause,
  );
}
