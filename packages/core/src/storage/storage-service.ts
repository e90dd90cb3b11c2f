import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { StorageService } from '@lousho/protocol';

const SEGMENT = /^[A-Za-z0-9._~-]{1,200}$/;

/**
 * Checks that `key` is a safe storage path: 1–16 segments of letters, digits, `.`, `_`, `~`, `-`
 * (at most 200 characters each), never `.` or `..`. Throws `LOUSHO_INVALID_INPUT` otherwise, so no key
 * can leave a storage's folder. Use `storageKeySegment()` for ids that come from outside.
 */
export function checkStorageKey(key: string): string {
  const segments = typeof key === 'string' ? key.split('/') : [];
  if (segments.length === 0 || segments.length > 16 || !segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..')) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, `Invalid storage key ${JSON.stringify(String(key).slice(0, 80))}.`, {
      hint: 'Keys are /-separated segments of letters, digits, . _ ~ - (not . or ..); pass outside ids through storageKeySegment().',
    });
  }
  return key;
}

/**
 * One key segment for any id (a session id, an approval id): safe characters are kept, every other
 * character is percent-encoded (`%` itself as `~25`), so two different ids never share a segment and
 * the result is a valid file name everywhere.
 */
export function storageKeySegment(id: string): string {
  let out = '';
  for (const char of id) {
    out += /[A-Za-z0-9._-]/.test(char) ? char : [...new TextEncoder().encode(char)].map((b) => `~${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  if (out === '' || out === '.' || out === '..') out = `~${out.replace(/\./g, '~2E')}`;
  if (out.length > 200) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, `An id of ${id.length} characters is too long to be a storage key.`, { hint: 'Use ids of at most 200 ASCII letters and digits; any other character takes 3 to 12 places once encoded.' });
  }
  return out;
}

/** A `StorageService` in this process's memory (tests, or a cache in front of nothing). */
export class MemoryStorageService implements StorageService {
  readonly #values = new Map<string, string>();

  /** The value stored under `key`, or undefined. */
  get(key: string): string | undefined {
    return this.#values.get(checkStorageKey(key));
  }

  /** Stores `value` under `key`. */
  set(key: string, value: string): void {
    this.#values.set(checkStorageKey(key), value);
  }

  /** Removes `key`; no-op when it is not there. */
  delete(key: string): void {
    this.#values.delete(checkStorageKey(key));
  }

  keys(prefix = ''): string[] {
    return [...this.#values.keys()].filter((key) => key.startsWith(prefix));
  }

  update(key: string, change: (current: string | undefined) => string | undefined): string | undefined {
    const next = change(this.get(key));
    if (next === undefined) this.delete(key);
    else this.set(key, next);
    return next;
  }
}

/** What `WebStorageService` needs of `window.localStorage` (or `sessionStorage`). */
export interface WebStorageLike {
  readonly length: number;
  /** The key at `index`, or null past the end. */
  key(index: number): string | null;
  /** The value under `key`, or null. */
  getItem(key: string): string | null;
  /** Stores a value; may throw when the quota is full. */
  setItem(key: string, value: string): void;
  /** Removes `key`. */
  removeItem(key: string): void;
}

/**
 * A `StorageService` over the browser's `localStorage` (or any Web Storage), with every key under
 * `prefix` so it shares the origin's storage safely. Web Storage is synchronous and one page's
 * script runs one task at a time, so `update` is atomic within the page.
 */
export class WebStorageService implements StorageService {
  readonly #storage: WebStorageLike;
  readonly #prefix: string;

  constructor(options: { storage?: WebStorageLike; prefix?: string } = {}) {
    const storage = options.storage ?? (globalThis as { localStorage?: WebStorageLike }).localStorage;
    if (!storage) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'WebStorageService: there is no localStorage here.', {
        hint: 'Use it in a browser, or pass { storage } (in Node, use FileStorageService from @lousho/build-ai-agent/node).',
      });
    }
    this.#storage = storage;
    this.#prefix = options.prefix ?? 'lousho:';
  }

  /** The value stored under `key` (under the prefix), or undefined. */
  get(key: string): string | undefined {
    return this.#storage.getItem(this.#prefix + checkStorageKey(key)) ?? undefined;
  }

  /** Stores `value` under `key`; a full quota throws `LOUSHO_STORAGE_ERROR`. */
  set(key: string, value: string): void {
    try {
      this.#storage.setItem(this.#prefix + checkStorageKey(key), value);
    } catch (error) {
      throw new SDKError(ERROR_CODES.LOUSHO_STORAGE_ERROR, `Could not write '${key}' to web storage (${error instanceof Error ? error.name : 'error'}).`, {
        hint: 'The origin is probably over its storage quota: delete old sessions, or keep large transcripts on a server.',
        cause: error,
      });
    }
  }

  /** Removes `key`; no-op when it is not there. */
  delete(key: string): void {
    this.#storage.removeItem(this.#prefix + checkStorageKey(key));
  }

  keys(prefix = ''): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.#storage.length; i++) {
      const key = this.#storage.key(i);
      if (key?.startsWith(this.#prefix) && key.startsWith(prefix, this.#prefix.length)) out.push(key.slice(this.#prefix.length));
    }
    return out;
  }

  update(key: string, change: (current: string | undefined) => string | undefined): string | undefined {
    const next = change(this.get(key));
    if (next === undefined) this.delete(key);
    else this.set(key, next);
    return next;
  }
}
