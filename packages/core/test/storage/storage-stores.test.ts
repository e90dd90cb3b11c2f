import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStorageCheckpointStore, MemoryStorageService, StorageServiceApprovalStore, WebStorageService, type StorageService, type WebStorageLike } from '../../src/storage/index.js';
import { FileStorageService } from '../../src/node/io.js';
import { memoryStore } from '../../src/stores/index.js';
import { storeContract } from '../../src/testing/stores.js';
import { MARKER, writeAndReadBack } from '../../src/testing/stores.js';
import { EncryptionUtils } from '@lousho/protocol';
import { fileMemory } from '../../src/memory/index.js';

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

const encryptionKey = EncryptionUtils.generateKey();
const encryptedDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lousho-files-'));
  dirs.push(dir);
  return dir;
};
storeContract('StorageService stores on FileStorageService (encrypted)', over(() => new FileStorageService({ dir: encryptedDir(), encryption: { key: encryptionKey } })), parts);

/** The text of every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}

describe('FileStorageService: encryption', () => {
  it('keeps no plaintext in its files: checkpoints, approvals', async () => {
    const dir = encryptedDir();
    const service = new FileStorageService({ dir, encryption: { key: encryptionKey } });
    await writeAndReadBack({ sessions: memoryStore().sessions, checkpoints: new LocalStorageCheckpointStore(service), approvals: new StorageServiceApprovalStore(service) });
    const files = filesUnder(dir);
    expect(files.length).toBeGreaterThan(3);
    for (const text of files) {
      expect(text).not.toContain(MARKER);
      expect(text).toMatch(/^v1\./);
    }
    // Without the key (or with another), a clear error rather than garbage.
    await expect(new FileStorageService({ dir }).get('approvals/ap_1')).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
    const keys = await new FileStorageService({ dir }).keys();
    expect(keys.length).toBe(files.length);
    await expect(new FileStorageService({ dir, encryption: { key: EncryptionUtils.generateKey() } }).get(keys[0]!)).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
  });

  it('keeps no plaintext in memory files (fileMemory)', async () => {
    const dir = encryptedDir();
    const memory = fileMemory({ dir, encryption: { key: encryptionKey } });
    await memory.add('user-1', `likes ${MARKER}`);
    expect((await memory.recent('user-1', 5)).map((item) => item.text)).toEqual([`likes ${MARKER}`]);
    const files = filesUnder(dir);
    expect(files.length).toBe(1);
    expect(files[0]).not.toContain(MARKER);
    expect(() => fileMemory({ dir, encryption: { key: encryptionKey, rotateFrom: 'x' } as never })).toThrow(/key rotation is not supported/);
  });
});
