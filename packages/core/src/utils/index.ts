export { sha256 } from './sha256.js';
export { EncryptionUtils, type EncryptionKey } from '@lousho/protocol';
export { compileLinearRegExp, type LinearRegExp, type LinearRegExpOptions } from './linear-regex.js';
export { stripJsonFence, findJsonFence } from './json-fence.js';
