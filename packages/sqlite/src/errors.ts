import { ERROR_CODES, SDKError } from '@lousho/core';

/** A store file that cannot be used as it is: it names the file and says what to do. Nothing was changed. */
export class StoreFileError extends SDKError {
  readonly path: string;
  constructor(code: string, path: string, message: string, hint: string, cause?: unknown) {
    super(code, message, { hint, ...(cause !== undefined ? { cause } : {}) });
    this.name = 'StoreFileError';
    this.path = path;
  }
}

export function corruptFileError(path: string, detail: string, cause?: unknown): StoreFileError {
  return new StoreFileError(
    ERROR_CODES.LOUSHO_STORE_CORRUPT,
    path,
    `The store file '${path}' is not a usable Lousho SQLite store (${detail}). It was left untouched.`,
    `Restore '${path}' from a backup, or move it away so a new store is created there (its sessions are then lost).`,
    cause,
  );
}

export function newerSchemaError(path: string, found: number, supported: number): StoreFileError {
  return new StoreFileError(
    ERROR_CODES.LOUSHO_STORE_VERSION,
    path,
    `The store file '${path}' has schema version ${found}, written by a newer version of @lousho/core; this version reads up to ${supported}. It was left untouched.`,
    'Upgrade @lousho/core (and @lousho/build-ai-agent) to the version that wrote the file, or point this process at another file.',
  );
}

export function unavailableError(path: string, detail: string, cause?: unknown): StoreFileError {
  return new StoreFileError(
    ERROR_CODES.LOUSHO_STORE_UNAVAILABLE,
    path,
    `The store file '${path}' could not be used: ${detail}.`,
    'Check that the folder exists and is writable, that the disk has room, and that better-sqlite3@12 is installed (npm install better-sqlite3@12).',
    cause,
  );
}

/** SQLite's own codes for a damaged file or one that is not a database. */
export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}
