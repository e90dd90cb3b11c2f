import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { StorageService } from '@lousho/protocol';
import { encryptionKeyOf, type StoreEncryptionOptions } from '@lousho/store-kit';
import { loadNodeFiles } from '../utils/node-only.js';
import { storageMemory, type StorageMemoryOptions } from './storage-memory.js';
import type { MemoryProvider } from './types.js';

/** What `fileMemory()` takes: the folder, and how many items a slot keeps. */
export interface FileMemoryOptions extends StorageMemoryOptions {
  /** The folder memory is kept in (created on first write). */
  dir: string;
  /** Encrypts every slot with this AES-256 key (see `FileStorageService`'s `encryption`). */
  encryption?: StoreEncryptionOptions;
}

/**
 * A `MemoryProvider` over files in `dir`, for Node: built on `FileStorageService`, so each slot is one
 * file with a safe name, written atomically, and an `add` from two processes to the same slot keeps
 * both items (the update runs under a lock file).
 */
export function fileMemory(options: FileMemoryOptions): MemoryProvider {
  if (typeof options !== 'object' || options === null || typeof options.dir !== 'string' || options.dir === '') {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'fileMemory() needs { dir }: the folder to keep memory in.', { hint: "fileMemory({ dir: './memory' })" });
  }
  const { dir, encryption, ...rest } = options;
  // The option's shape is checked now; the key itself when the Node module loads.
  encryptionKeyOf(encryption, 'fileMemory()');
  let loaded: Promise<StorageService> | undefined;
  const storage = (): Promise<StorageService> => {
    loaded ??= load(dir, encryption);
    loaded.catch(() => (loaded = undefined));
    return loaded;
  };
  // The Node module loads on the first use, so the package root stays importable in a browser.
  const lazy: StorageService = {
    get: async (key) => (await storage()).get(key),
    set: async (key, value) => (await storage()).set(key, value),
    delete: async (key) => (await storage()).delete(key),
    keys: async (prefix) => (await storage()).keys(prefix),
    update: async (key, change) => (await storage()).update(key, change),
  };
  return storageMemory(lazy, rest);
}

async function load(dir: string, encryption: StoreEncryptionOptions | undefined): Promise<StorageService> {
  const module = await loadNodeFiles('fileMemory()', 'In a browser, use storageMemory(new WebStorageService(localStorage)) or inMemoryMemory().');
  return new module.FileStorageService({ dir, ...(encryption !== undefined ? { encryption } : {}) });
}
