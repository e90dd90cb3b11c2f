/** The durable behaviour of flows on PostgreSQL: two connections stand for two server processes. */
import { describe } from 'vitest';
import { PostgresStore } from '@lousho/postgres';
import { databaseUrl, freshSchema, openOnSchema } from '@lousho/test-kit/postgres-env';
import { durableSuite } from './suite.js';

describe.skipIf(!databaseUrl)('PostgreSQL', () => {
  durableSuite({
    name: 'PostgreSQL',
    async open() {
      const schema = freshSchema('flows');
      const openStore = () => openOnSchema((connectionString) => PostgresStore.connect({ connectionString, schema }), schema);
      const one: PostgresStore = await openStore();
      // Closed with the file (postgres-env closes every store it opened and drops the schema).
      return { one, another: openStore, close: async () => {} };
    },
  });
});
