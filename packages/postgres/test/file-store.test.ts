import { describe, expect, it } from 'vitest';
import { fileStoreContract } from '@lousho/core/testing/stores';
import { readAll } from '@lousho/core';
import { openOnSchema } from '@lousho/test-kit/postgres-env';
import { PostgresFileStore } from '../src/index.js';
import { databaseUrl, freshSchema } from './pg-env.js';

describe.skipIf(!databaseUrl)('PostgresFileStore', () => {
  fileStoreContract('PostgresFileStore', () => openOnSchema((connectionString, schema) => PostgresFileStore.connect({ connectionString, schema })));

  it('shares files between stores of several processes (each its own pool), created at the same time', async () => {
    const schema = freshSchema('files');
    const open = () => openOnSchema((connectionString) => PostgresFileStore.connect({ connectionString, schema }), schema);
    const [a, b] = await Promise.all([open(), open()]);
    async function* body(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array([1, 2, 3]);
    }
    const file = await a.put({ sessionId: 's', name: 'x.bin', mimeType: 'application/octet-stream', body: body(), maxBytes: 10 });
    expect(await readAll((await b.get(file.id))!.body)).toEqual(new Uint8Array([1, 2, 3]));
    expect(await b.deleteSession('s')).toBe(1);
    expect(await a.info(file.id)).toBeUndefined();
  });
});
