import { ERROR_CODES, SDKError } from '@lousho/core';

/** A browser database the store cannot use: it names the database and says what to do. Nothing was changed. */
export class IndexedDbStoreError extends SDKError {
  readonly database: string;
  constructor(code: string, database: string, message: string, hint: string, cause?: unknown) {
    super(code, message, { hint, ...(cause !== undefined ? { cause } : {}) });
    this.name = 'IndexedDbStoreError';
    this.database = database;
  }
}

export function unavailableError(database: string, detail: string, cause?: unknown): IndexedDbStoreError {
  return new IndexedDbStoreError(
    ERROR_CODES.LOUSHO_STORE_UNAVAILABLE,
    database,
    `The IndexedDB database '${database}' could not be used: ${detail}.`,
    'IndexedDB needs a browser (or a worker) that allows storage for this site: private windows and blocked site data can refuse it, and a full disk refuses writes. Without it, leave `store` out (sessions then live in memory).',
    cause,
  );
}

export function newerVersionError(database: string, supported: number, cause?: unknown): IndexedDbStoreError {
  return new IndexedDbStoreError(
    ERROR_CODES.LOUSHO_STORE_VERSION,
    database,
    `The IndexedDB database '${database}' was written by a newer version of @lousho/core; this version reads up to version ${supported}. It was left untouched.`,
    'Load the same version of @lousho/core (and @lousho/build-ai-agent) in every page of this site, or give this store another database name.',
    cause,
  );
}

/** Store-level failures of a request (a full quota, a closed database) as a store error; our own errors pass through. */
export function storeFailure(database: string, error: unknown): unknown {
  if (SDKError.is(error) || error instanceof TypeError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  const detail =
    name === 'QuotaExceededError'
      ? 'the browser refused the write (the storage quota is used up)'
      : name === 'InvalidStateError'
        ? 'the database was closed (store.close(), or another page upgraded it)'
        : String((error as { message?: unknown } | null)?.message ?? error);
  return unavailableError(database, detail, error);
}
