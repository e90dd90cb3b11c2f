import { KeyObject, createCipheriv, createDecipheriv, createSecretKey, randomBytes } from 'node:crypto';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { encryptionKeyOf, isSealed, plainSealer, rawKey, sealMismatch, type TextSealer } from './store-encryption.js';
import { fromBase64, fromUtf8, toBase64Url, utf8 } from '@lousho/protocol';
import type { EncryptionKey } from '@lousho/protocol';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The Node stores' sealer: AES-256-GCM through `node:crypto`, synchronous (SQLite's transactions
 * are), in `EncryptionUtils`' format (`v1.<iv>.<ciphertext+tag>`, a fresh random IV per value), so
 * `EncryptionUtils.decrypt(value, key, 'lousho:' + context)` opens any value too. The context (which
 * table and session a value belongs to) is authenticated: a value moved elsewhere does not open.
 */
export function textSealer(option: unknown, store: string): TextSealer {
  const key = encryptionKeyOf(option, store);
  if (key === undefined) return plainSealer(store);
  const secret = keyObject(key);
  return {
    encrypted: true,
    seal(text, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      cipher.setAAD(utf8(`lousho:${context}`));
      const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `v1.${toBase64Url(iv)}.${toBase64Url(sealed)}`;
    },
    open(text, context) {
      if (!isSealed(text)) throw sealMismatch(store, false);
      const [, ivText, dataText] = text.split('.');
      const iv = ivText !== undefined ? fromBase64(ivText) : undefined;
      const data = dataText !== undefined ? fromBase64(dataText) : undefined;
      if (!iv || !data || iv.length !== IV_BYTES || data.length < TAG_BYTES) throw failed(store, 'a stored value is not one it encrypted');
      try {
        const decipher = createDecipheriv('aes-256-gcm', secret, iv);
        decipher.setAAD(utf8(`lousho:${context}`));
        decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
        return fromUtf8(Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]));
      } catch {
        throw failed(store, 'a stored value was changed, moved, or encrypted with another key');
      }
    },
  };
}

function keyObject(key: EncryptionKey): KeyObject {
  const raw = rawKey(key);
  if (raw) return createSecretKey(raw);
  const algorithm = (key as CryptoKey).algorithm as AesKeyAlgorithm;
  if (algorithm.name === 'AES-GCM' && algorithm.length === 256) return KeyObject.from(key as CryptoKey);
  throw new SDKError(ERROR_CODES.LOUSHO_INVALID_ENCRYPTION_KEY, `A store's encryption key must be a 256-bit AES key, got a CryptoKey for ${algorithm.name}.`, {
    hint: 'Create one with EncryptionUtils.generateKey() and keep it as a secret; pass it as that base64url text.',
  });
}

function failed(store: string, why: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_DECRYPTION_FAILED, `${store} could not decrypt: ${why}.`, {
    hint: 'Open the store with the key it was written with; never edit its encrypted values.',
  });
}
