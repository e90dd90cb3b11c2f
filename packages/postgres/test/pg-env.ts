/** The PostgreSQL test database (@lousho/test-kit/postgres-env), and `openStore`: a PostgresStore on a schema of this file. */
import { openOnSchema } from '@lousho/test-kit/postgres-env';
import { PostgresStore, type PostgresStoreOptions } from '../src/index.js';

export { databaseUrl, freshSchema, ownCluster, synchronousCommit, synchronousCommitOf } from '@lousho/test-kit/postgres-env';

/** A store on a schema of this file (a fresh one unless given); closed, and its schema dropped, after the file. */
export function openStore(options: Omit<PostgresStoreOptions, 'connectionString'> = {}): Promise<PostgresStore> {
  return openOnSchema((connectionString, schema) => PostgresStore.connect({ connectionString, ...options, schema }), options.schema);
}
