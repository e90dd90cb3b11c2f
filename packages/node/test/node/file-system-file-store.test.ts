import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { fileStoreContract } from '@lousho/core/testing/stores';
import { FileSystemFileStore } from '../../src/node/index.js';

const root = mkdtempSync(join(tmpdir(), 'lousho-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

fileStoreContract('FileSystemFileStore', () => new FileSystemFileStore({ dir: join(root, `s${n++}`) }));

it('leaves no temporary file behind a refused upload, and names nothing on disk after the user', async () => {
  const dir = join(root, 'layout');
  const store = new FileSystemFileStore({ dir, fsync: false });
  async function* tooMuch(): AsyncGenerator<Uint8Array> {
    yield new Uint8Array(8);
    yield new Uint8Array(8);
  }
  await expect(store.put({ sessionId: 's', name: 'big', mimeType: 'text/plain', body: tooMuch(), maxBytes: 10 })).rejects.toMatchObject({ code: 'LOUSHO_FILE_TOO_LARGE' });
  expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  expect(readdirSync(join(dir, 'blobs'))).toEqual([]);
  const file = await store.put({ sessionId: '../../x', name: '../../evil.sh', mimeType: 'text/plain', body: tooMuch(), maxBytes: 100 });
  expect(readdirSync(join(dir, 'blobs'))).toEqual([file.id]);
  expect(readdirSync(join(dir, 'sessions'))[0]).toMatch(/^[0-9a-f]{64}$/);
  expect(readdirSync(dir).sort()).toEqual(['blobs', 'meta', 'sessions', 'tmp']);
});
