// The key/value storage the file-backed stores are built on (storage/ implements it).

/**
 * A small key/value store of strings, the base of the file-backed approval and checkpoint stores.
 * Keys are `/`-separated paths of safe segments (see `checkStorageKey`); values are any text (the
 * stores write JSON). Every method may answer synchronously or with a Promise.
 */
export interface StorageService {
  /** The value stored under `key`, or undefined. Throws `LOUSHO_INVALID_INPUT` for a key that is not a safe path. */
  get(key: string): Promise<string | undefined> | string | undefined;
  /** Stores `value` under `key`, replacing what was there (file implementations write atomically). */
  set(key: string, value: string): Promise<void> | void;
  /** Removes `key`; no-op when it is not there. */
  delete(key: string): Promise<void> | void;
  /** The keys that start with `prefix` (every key without one), in no particular order. */
  keys(prefix?: string): Promise<string[]> | string[];
  /**
   * Reads, changes and writes one key as one atomic step, also against other processes sharing the
   * storage (a file lock for files): `change` gets the current value and returns the new one
   * (`undefined` deletes the key, the same string leaves it as it is). Resolves to the value kept.
   * This is what makes claiming an approval or taking a lease safe with several writers.
   */
  update(key: string, change: (current: string | undefined) => string | undefined): Promise<string | undefined> | string | undefined;
}
