// `@lousho/store-kit`: what a durable session store is built from, shared by core's `memoryStore()`
// and the database stores (@lousho/sqlite, @lousho/postgres, @lousho/indexeddb), and open to a custom
// store. Isomorphic; the Node stores' synchronous sealer is `@lousho/store-kit/node`.
export { stampEvent } from '@lousho/protocol';
// The stores' errors and codes.
export * from './errors.js';
// The event log compacted, and replayed from a resume point.
export * from './compact-log.js';
// Which sessions a bounded store keeps.
export * from './session-retention.js';
export { toJson, fromJson, storedEvent, storedEventBody } from './json-text.js';
export { num, sessionRecordOf, usageColumnAfter, type SessionRow } from './session-row.js';
export {
  isSealed,
  encryptionKeyOf,
  sealMismatch,
  plainSealer,
  webCryptoSealer,
  rawKey,
  type StoreEncryptionOptions,
  type TextSealer,
  type AsyncTextSealer,
} from './store-encryption.js';
// Sessions listed a page at a time, renamed, deleted.
export * from './session-page.js';
// Each session's usage, counted once per run however its events arrive.
export { tallyUsage, usageOfTally, countsUsage, type SessionUsageTally } from './session-usage.js';
