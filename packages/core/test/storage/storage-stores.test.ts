import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { LocalStorageCheckpointStore, MemoryStorageService, StorageServiceApprovalStore, WebStorageService, type StorageService, type WebStorageLike } from '../../src/storage/index.js';
import { FileStorageService } from '../../src/node/index.js';
import { memoryStore } from '../../src/stores/index.js';
import { storeContract } from '../stores/store-contract.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A Web Storage with the browser's semantics (string values, `key(i)`, `length`). */
export class FakeWebStorage implements WebStorageLike {
  readonly #items = new Map<string, string>();
  get length() {
    return this.#items.size;
  }
  key(index: number) {
    return [...this.#items.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.#items.set(key, String(value));
  }
  removeItem(key: string) {
    this.#items.delete(key);
  }
}

function over(storage: () => StorageService) {
  return () => {
    const service = storage();
    return { sessions: memoryStore().sessions, checkpoints: new LocalStorageCheckpointStore(service), approvals: new StorageServiceApprovalStore(service) };
  };
}

const parts = ['checkpoints', 'approvals'] as const;
storeContract('StorageService stores on MemoryStorageService', over(() => new MemoryStorageService()), parts);
storeContract('StorageService stores on WebStorageService', over(() => new WebStorageService({ storage: new FakeWebStorage() })), parts);
storeContract(
  'StorageService stores on FileStorageService',
  over(() => {
    const dir = mkdtempSync(join(tmpdir(), 'lousho-files-'));
    dirs.push(dir);
    return new FileStorageService({ dir });
  }),
  parts,
);
