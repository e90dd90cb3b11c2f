export { sha256 } from './sha256.js';
export { EncryptionUtils, type EncryptionKey } from './encryption.js';
export { compileLinearRegExp, type LinearRegExp, type LinearRegExpOptions } from './linear-regex.js';
export { stripJsonFence, findJsonFence } from './json-fence.js';
