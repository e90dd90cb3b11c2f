export { sha256 } from './sha256.js';
export { EncryptionUtils, type EncryptionKey } from './encryption.js';
