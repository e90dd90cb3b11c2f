// `@lousho/core/testing/stores`: the behaviour every `AgentStore` must have, as vitest tests a store's
// own test file runs (memory, file, SQLite, PostgreSQL and IndexedDB stores run it; so can a custom
// store). Needs vitest.
export { storeContract } from './store-contract.js';
export { MARKER, writeAndReadBack } from './encryption-contract.js';
export { fileStoreContract } from './file-store-contract.js';
