// `@lousho/indexeddb`: a store for an agent that runs in the page or a worker, documented as
// `@lousho/build-ai-agent/indexeddb`.
export { IndexedDbStore, type IndexedDbStoreOptions, type IndexedDbSessionStore, type IndexedDbCheckpointStore, type IndexedDbApprovalStore } from './indexeddb-store.js';
export { IndexedDbStoreError } from './errors.js';
export { SCHEMA_VERSION } from './schema.js';
export type { LockManagerLike } from './page-liveness.js';
