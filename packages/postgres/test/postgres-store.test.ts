import { describe, expect, it } from 'vitest';
import { storeContract } from '@lousho/core/testing/stores';
import { MARKER, writeAndReadBack } from '@lousho/core/testing/stores';
import { EncryptionUtils } from '@lousho/core';
import { PostgresStore } from '../src/index.js';
import { databaseUrl, freshSchema, openStore } from './pg-env.js';

const key = EncryptionUtils.generateKey();

describe.skipIf(!databaseUrl)('PostgresStore', () => {
  storeContract('PostgresStore', () => openStore());
  storeContract('PostgresStore (encrypted)', () => openStore({ encryption: { key } }));

  describe('PostgresStore: encryption', () => {
    it('keeps no plaintext in its rows: events, transcript, run state, approvals and pending approvals are sealed', async () => {
      const schema = freshSchema('enc');
      const store = await openStore({ schema, encryption: { key } });
      await writeAndReadBack(store);
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const columns: [string, string][] = [
          ['lousho_events', 'body'],
          ['lousho_messages', 'body'],
          ['lousho_run_items', 'body'],
          ['lousho_approvals', 'body'],
          ['lousho_checkpoints', 'run_start'],
          ['lousho_checkpoints', 'run_progress'],
          ['lousho_sessions', 'pending_approval'],
        ];
        for (const [table, column] of columns) {
          const { rows } = await client.query<{ v: string }>(`SELECT ${column} AS v FROM "${schema}".${table}`);
          expect(rows.length).toBeGreaterThan(0);
          for (const row of rows) expect(row.v).toMatch(/^v1\./);
        }
        // Every row of every table, as text: the marker is nowhere.
        for (const table of ['lousho_sessions', 'lousho_events', 'lousho_checkpoints', 'lousho_messages', 'lousho_run_items', 'lousho_approvals']) {
          const { rows } = await client.query<{ t: string }>(`SELECT t::text AS t FROM "${schema}".${table} AS t`);
          for (const row of rows) expect(row.t).not.toContain(MARKER);
        }
        // The metadata stays plain.
        const { rows } = await client.query(`SELECT id, owner, status, last_seq FROM "${schema}".lousho_sessions`);
        expect(rows).toEqual([{ id: 'enc-1', owner: 'alice', status: 'awaiting-approval', last_seq: '3' }]);
      } finally {
        await client.end();
      }
      const keyless = await openStore({ schema });
      await expect(keyless.sessions.eventsAfter('enc-1', 0)).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
    });

    it('refuses a bad key, and key rotation, before connecting', async () => {
      await expect(PostgresStore.connect({ connectionString: databaseUrl!, encryption: { key: 'nope' } })).rejects.toMatchObject({ code: 'LOUSHO_INVALID_ENCRYPTION_KEY' });
      await expect(PostgresStore.connect({ connectionString: databaseUrl!, encryption: { key, previousKeys: [key] } as never })).rejects.toThrow(/key rotation is not supported/);
    });
  });
});
