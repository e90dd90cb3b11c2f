import { describe, expect, it } from 'vitest';
import { readAll } from '@lousho/protocol';
import type { FileStore } from '@lousho/protocol';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);
const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4);

async function* chunks(...parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield part;
}

/** A body that gives `parts` and then breaks off, as a client that goes away mid-upload. */
async function* breaksOff(...parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks(...parts);
  throw new Error('connection reset');
}

const codeOf = async (action: () => Promise<unknown>): Promise<unknown> => {
  try {
    await action();
  } catch (error) {
    return (error as { code?: unknown }).code ?? error;
  }
  return 'no error';
};

/**
 * The behaviour every `FileStore` must have (memory, file system, PostgreSQL run it; so can a
 * store of your own). `open` makes an empty store; `close` (optional) ends it after each test.
 */
export function fileStoreContract(name: string, open: () => FileStore | Promise<FileStore>, close?: (store: FileStore) => void | Promise<void>): void {
  describe(`${name}: FileStore contract`, () => {
    const withStore = (test: (store: FileStore) => Promise<void>) => async () => {
      const store = await open();
      try {
        await test(store);
      } finally {
        await close?.(store);
      }
    };

    it(
      'keeps a file given in several chunks, as a web stream too, and gives back its bytes and reference',
      withStore(async (store) => {
        const file = await store.put({ sessionId: 's1', name: 'cat.png', mimeType: 'image/png', body: chunks(PNG.slice(0, 5), PNG.slice(5)), maxBytes: 100 });
        expect(file).toMatchObject({ sessionId: 's1', name: 'cat.png', mimeType: 'image/png', size: PNG.byteLength });
        expect(file.id).toMatch(/^f_[0-9a-f]{32}$/);
        expect(await store.info(file.id)).toEqual(file);
        const content = await store.get(file.id);
        expect(content?.file).toEqual(file);
        expect(await readAll(content!.body)).toEqual(PNG);
        const web = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(bytes(1, 2)), c.enqueue(bytes(3)), c.close()) });
        const second = await store.put({ sessionId: 's1', name: 'a.bin', mimeType: 'application/octet-stream', body: web, maxBytes: 3 });
        expect(second.id).not.toBe(file.id);
        expect(await readAll((await store.get(second.id))!.body)).toEqual(bytes(1, 2, 3));
      }),
    );

    it(
      'keeps an empty file and a file larger than one chunk of the store',
      withStore(async (store) => {
        const empty = await store.put({ sessionId: 's', name: 'empty.txt', mimeType: 'text/plain', body: chunks(), maxBytes: 10 });
        expect(empty.size).toBe(0);
        expect(await readAll((await store.get(empty.id))!.body)).toEqual(new Uint8Array(0));
        const big = new Uint8Array(300_000).map((_, i) => i % 251);
        const stored = await store.put({ sessionId: 's', name: 'big.bin', mimeType: 'application/octet-stream', body: chunks(big.slice(0, 70_000), big.slice(70_000)), maxBytes: 300_000 });
        expect(stored.size).toBe(300_000);
        const back = await readAll((await store.get(stored.id))!.body);
        expect(back.byteLength === big.byteLength && back.every((value, i) => value === big[i])).toBe(true);
      }),
    );

    it(
      'stores nothing for a body past maxBytes (LOUSHO_FILE_TOO_LARGE) or one that breaks off',
      withStore(async (store) => {
        const keep = await store.put({ sessionId: 's', name: 'keep.txt', mimeType: 'text/plain', body: chunks(bytes(1)), maxBytes: 10 });
        expect(await codeOf(() => store.put({ sessionId: 's', name: 'x', mimeType: 'text/plain', body: chunks(bytes(1, 2, 3), bytes(4, 5)), maxBytes: 4 }))).toBe('LOUSHO_FILE_TOO_LARGE');
        expect(await codeOf(() => store.put({ sessionId: 's', name: 'x', mimeType: 'text/plain', body: breaksOff(bytes(1, 2)), maxBytes: 10 }))).not.toBe('no error');
        // Only the first file is left: deleting the session finds exactly one.
        expect(await store.deleteSession('s')).toBe(1);
        expect(await store.info(keep.id)).toBeUndefined();
      }),
    );

    it(
      'cleans the name (no folders, no control characters) and never uses it to find the file',
      withStore(async (store) => {
        const file = await store.put({ sessionId: 's', name: '../../etc/pass\u0000wd', mimeType: 'text/plain', body: chunks(bytes(65)), maxBytes: 10 });
        expect(file.name).toBe('passwd');
        const dots = await store.put({ sessionId: 's', name: '..', mimeType: 'text/plain', body: chunks(bytes(65)), maxBytes: 10 });
        expect(dots.name).toBe('file');
      }),
    );

    it(
      'answers undefined / false for unknown and malformed ids',
      withStore(async (store) => {
        for (const id of ['f_00000000000000000000000000000000', '../x', '', 'f_' + 'a'.repeat(1000)]) {
          expect(await store.info(id)).toBeUndefined();
          expect(await store.get(id)).toBeUndefined();
          expect(await store.delete(id)).toBe(false);
        }
        expect(await store.deleteSession('nobody')).toBe(0);
      }),
    );

    it(
      'deletes one file, and every file of a session and no other',
      withStore(async (store) => {
        const put = (sessionId: string) => store.put({ sessionId, name: 'n.txt', mimeType: 'text/plain', body: chunks(bytes(1)), maxBytes: 10 });
        const a1 = await put('a');
        const a2 = await put('a');
        const b = await put('b:odd/../id');
        expect(await store.delete(a1.id)).toBe(true);
        expect(await store.delete(a1.id)).toBe(false);
        expect(await store.info(a1.id)).toBeUndefined();
        expect(await store.deleteSession('a')).toBe(1);
        expect(await store.info(a2.id)).toBeUndefined();
        expect(await store.get(a2.id)).toBeUndefined();
        expect(await store.info(b.id)).toEqual(b);
        expect(await store.deleteSession('b:odd/../id')).toBe(1);
      }),
    );
  });
}
