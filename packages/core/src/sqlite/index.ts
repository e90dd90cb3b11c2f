// Node-only entry (`@lousho/core/sqlite`): never imported by the root entry.
export { SqliteStore, type SqliteStoreOptions, type SqliteSessionStore, type SqliteCheckpointStore, type SqliteApprovalStore } from './sqlite-store.js';
export { StoreFileError } from './errors.js';
export { SCHEMA_VERSION } from './schema.js';
export type { SqliteReplayStore } from './replay-store.js';
