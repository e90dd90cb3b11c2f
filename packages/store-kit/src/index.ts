// `@lousho/core/store-kit`: what a durable session store is built from, shared by the database
// stores (@lousho/sqlite, @lousho/postgres, @lousho/indexeddb) and open to a custom store. Isomorphic;
// the Node stores' synchronous sealer is `@lousho/core/store-kit/node`.
export { stampEvent } from '@lousho/protocol';
export { missingRunStartError } from './errors.js';
export { toJson, fromJson, storedEvent, storedEventBody } from './json-text.js';
export { num, sessionRecordOf, type SessionRow } from './session-row.js';
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
export { titleFromEvents, pageOf, pageFromAll, decodeSessionCursor, checkPageLimit, sessionNotFoundError, type SessionCursor } from './session-page.js';
