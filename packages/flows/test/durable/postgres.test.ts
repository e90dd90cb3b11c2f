/** The durable behaviour of flows on PostgreSQL: two connections stand for two server processes. */
import { describe } from 'vitest';
import type { PostgresStore } from '@lousho/core/postgres';
import { databaseUrl, freshSchema, openStore } from '../../../core/test/postgres/pg-env.js';
import { durableSuite } from './suite.js';

describe.skipIf(!databaseUrl)('PostgreSQL', () => {
  durableSuite({
    name: 'PostgreSQL',
    async open() {
      const schema = freshSchema('flows');
      const one: PostgresStore = await openStore({ schema });
      // Closed with the file (pg-env closes every store it opened and drops the schema).
      return { one, another: () => openStore({ schema }), close: async () => {} };
    },
  });
});
