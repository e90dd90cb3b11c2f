// `@lousho/postgres` (Node only; needs pg@8): the PostgreSQL store, documented as `@lousho/build-ai-agent/postgres`.
export {
  PostgresStore,
  type PostgresStoreOptions,
  type PostgresSessionStore,
  type PostgresCheckpointStore,
  type PostgresApprovalStore,
} from './postgres-store.js';
export { PostgresSignals } from './signals.js';
export { PostgresFileStore, type PostgresFileStoreOptions } from './file-store.js';
export { PostgresStoreError, redactUrl } from './errors.js';
export { SCHEMA_VERSION } from './schema.js';
export type { PgPool, PgPoolClient } from './driver.js';
export type { PostgresReplayStore } from './replay-store.js';
