// Node-only entry (`@lousho/core/postgres`): never imported by the root entry. Needs `pg@8`.
export {
  PostgresStore,
  type PostgresStoreOptions,
  type PostgresSessionStore,
  type PostgresCheckpointStore,
  type PostgresApprovalStore,
} from './postgres-store.js';
export { PostgresSignals } from './signals.js';
export { PostgresStoreError, redactUrl } from './errors.js';
export { SCHEMA_VERSION } from './schema.js';
export type { PgPool, PgPoolClient } from './driver.js';
export type { PostgresReplayStore } from './replay-store.js';
