import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { checkStorageKey } from '../storage/storage-service.js';
import type { StorageService } from '@lousho/protocol';
import type { StoreEncryptionOptions, TextSealer } from '@lousho/store-kit';
import { textSealer } from '@lousho/store-kit/node';

/** Options of `FileStorageService`: the folder, its lock timings, and whether writes are fsynced. */
export interface FileStorageServiceOptions {
  /** The folder that holds every value (created on first write). */
  dir: string;
  /** A lock file older than this is taken to be left by a crashed process and removed (default 10,000 ms). */
  staleLockMs?: number;
  /** How long `update` waits for a lock before it fails with `LOUSHO_STORAGE_ERROR` (default 15,000 ms). */
  lockTimeoutMs?: number;
  /** `fsync` each file before it replaces the old one, so a power loss keeps the old or the new value (default true). */
  fsync?: boolean;
  /**
   * Encrypts every value with this AES-256 key (checkpoints, approvals, memory: whatever is stored);
   * the keys, which are the file names, stay readable (docs/durable.md).
   */
  encryption?: StoreEncryptionOptions;
}

/** Values are files named `<segment>.v`, so key `a` (`a.v`) and key `a/b` (`a/b.v`) never collide. */
const SUFFIX = '.v';

/**
 * A `StorageService` over a folder, for Node: one file per key, written to a temporary file and
 * renamed over the old one (atomic on POSIX file systems, so a reader sees the old or the new value,
 * never half of one), and `update` under an exclusive lock file, so several processes sharing the
 * folder never lose a change. Keys are checked (`checkStorageKey`): none can leave `dir`.
 */
export class FileStorageService implements StorageService {
  readonly dir: string;
  readonly #staleLockMs: number;
  readonly #lockTimeoutMs: number;
  readonly #fsync: boolean;
  readonly #sealer: TextSealer;
  /** Updates of one key in this process run one after the other (the lock file handles other processes). */
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(options: FileStorageServiceOptions) {
    if (!options || typeof options.dir !== 'string' || options.dir === '') {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'FileStorageService needs { dir }: the folder to keep values in.', { hint: "new FileStorageService({ dir: './data' })" });
    }
    this.dir = options.dir;
    this.#staleLockMs = options.staleLockMs ?? 10_000;
    this.#lockTimeoutMs = options.lockTimeoutMs ?? 15_000;
    this.#fsync = options.fsync ?? true;
    this.#sealer = textSealer(options.encryption, `FileStorageService ${options.dir}`);
  }

  #path(key: string): string {
    return join(this.dir, ...checkStorageKey(key).split('/')) + SUFFIX;
  }

  async get(key: string): Promise<string | undefined> {
    const path = this.#path(key);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (code(error) === 'ENOENT') return undefined;
      throw storageError(`read '${key}'`, error);
    }
    return this.#sealer.open(text, `file:${key}`);
  }

  async set(key: string, value: string): Promise<void> {
    const path = this.#path(key);
    const sealed = this.#sealer.seal(value, `file:${key}`);
    const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(path), { recursive: true });
      const file = await open(temp, 'w', 0o600);
      try {
        await file.writeFile(sealed, 'utf8');
        if (this.#fsync) await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, path);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw storageError(`write '${key}'`, error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.#path(key));
    } catch (error) {
      if (code(error) !== 'ENOENT') throw storageError(`delete '${key}'`, error);
    }
  }

  async keys(prefix = ''): Promise<string[]> {
    // Only the folder the prefix's complete segments name needs walking.
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const root = folder ? join(this.dir, ...checkStorageKey(folder).split('/')) : this.dir;
    const out: string[] = [];
    const walk = async (path: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(path, { withFileTypes: true });
      } catch (error) {
        if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR') return;
        throw storageError('list keys', error);
      }
      for (const entry of entries) {
        const full = join(path, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile() && entry.name.endsWith(SUFFIX)) {
          const key = relative(this.dir, full).slice(0, -SUFFIX.length).split(sep).join('/');
          if (key.startsWith(prefix)) out.push(key);
        }
      }
    };
    await walk(root);
    return out;
  }

  update(key: string, change: (current: string | undefined) => string | undefined): Promise<string | undefined> {
    const path = this.#path(key);
    const previous = this.#queues.get(path) ?? Promise.resolve();
    const run = previous.catch(() => {}).then(() => this.#locked(key, path, change));
    this.#queues.set(path, run);
    void run.finally(() => {
      if (this.#queues.get(path) === run) this.#queues.delete(path);
    }).catch(() => {});
    return run;
  }

  async #locked(key: string, path: string, change: (current: string | undefined) => string | undefined): Promise<string | undefined> {
    const lock = `${path}.lock`;
    await mkdir(dirname(path), { recursive: true }).catch((error: unknown) => {
      throw storageError(`create the folder of '${key}'`, error);
    });
    const deadline = Date.now() + this.#lockTimeoutMs;
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      try {
        const handle = await open(lock, 'wx', 0o600);
        await handle.writeFile(`${process.pid}\n`);
        await handle.close();
        break;
      } catch (error) {
        if (code(error) !== 'EEXIST') throw storageError(`lock '${key}'`, error);
      }
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > this.#staleLockMs) {
        // Left by a process that died while holding it.
        await unlink(lock).catch(() => {});
        continue;
      }
      if (Date.now() > deadline) {
        throw new SDKError(ERROR_CODES.LOUSHO_STORAGE_ERROR, `Could not lock '${key}': another writer held it for ${this.#lockTimeoutMs} ms.`, {
          hint: 'Another process is stuck on this storage folder; if none is running, delete the .lock file.',
        });
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    try {
      const current = await this.get(key);
      const next = change(current);
      if (next === current) return current;
      if (next === undefined) await this.delete(key);
      else await this.set(key, next);
      return next;
    } finally {
      await unlink(lock).catch(() => {});
    }
  }
}

function code(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? ((error as { code?: string }).code ?? undefined) : undefined;
}

function storageError(what: string, error: unknown): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_STORAGE_ERROR, `FileStorageService could not ${what} (${code(error) ?? (error instanceof Error ? error.message : 'error')}).`, {
    hint: 'Check that the folder exists, is writable by this process, and that the disk is not full.',
    cause: error,
  });
}
