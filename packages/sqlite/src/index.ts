// `@lousho/sqlite` (Node only; needs better-sqlite3): the SQLite store, documented as `@lousho/build-ai-agent/sqlite`.
export { SqliteStore, type SqliteStoreOptions, type SqliteSessionStore, type SqliteCheckpointStore, type SqliteApprovalStore } from './sqlite-store.js';
export { StoreFileError } from './errors.js';
export { SCHEMA_VERSION } from './schema.js';
export type { SqliteReplayStore } from './replay-store.js';
