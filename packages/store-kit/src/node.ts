// `@lousho/store-kit/node`: the Node stores' synchronous sealer (node:crypto), for the SQLite and
// PostgreSQL stores and `FileStorageService`. Never reachable from the root entry.
export { textSealer } from './text-sealer.js';
