import { ERROR_CODES, SDKError } from '../errors.js';
import { fromBase64, fromUtf8, toBase64Url, utf8 } from './bytes.js';

/** A key as `EncryptionUtils` takes it: 32 bytes (raw or base64/base64url text), or an AES-GCM `CryptoKey`. */
export type EncryptionKey = string | Uint8Array | CryptoKey;

/** The format tag of an encrypted string; a later format gets a new tag and this one stays readable. */
const FORMAT = 'v1';
const IV_BYTES = 12;

/**
 * Authenticated encryption with AES-256-GCM through Web Crypto (browsers, Node 20+, workers).
 * Every `encrypt` uses a fresh random 96-bit IV, so the same text never encrypts the same way twice;
 * GCM's tag makes any change to the result fail `decrypt` with `LOUSHO_DECRYPTION_FAILED` instead
 * of returning altered text. An encrypted string is `v1.<iv>.<ciphertext+tag>` (base64url), safe in
 * JSON, URLs and file names.
 */
export const EncryptionUtils = {
  /** A new random 256-bit key, as base64url text (store it as a secret, e.g. an environment variable). */
  generateKey(): string {
    return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  },

  /** Encrypts UTF-8 text. `associatedData` (optional) is authenticated but not encrypted: decrypt must be given the same. */
  async encrypt(plaintext: string, key: EncryptionKey, associatedData?: string): Promise<string> {
    if (typeof plaintext !== 'string') throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, 'EncryptionUtils.encrypt: the plaintext must be a string.', { hint: 'JSON.stringify objects first.' });
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const sealed = await crypto.subtle.encrypt(params(iv, associatedData), await importKey(key), utf8(plaintext) as BufferSource);
    return `${FORMAT}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
  },

  /** Decrypts what `encrypt` returned; throws `LOUSHO_DECRYPTION_FAILED` for anything tampered, cut or sealed with another key. */
  async decrypt(encrypted: string, key: EncryptionKey, associatedData?: string): Promise<string> {
    const parts = typeof encrypted === 'string' ? encrypted.split('.') : [];
    const iv = parts[1] !== undefined ? fromBase64(parts[1]) : undefined;
    const sealed = parts[2] !== undefined ? fromBase64(parts[2]) : undefined;
    // Only the canonical spelling is accepted, so no edit of the text (even of bits base64 ignores) goes unnoticed.
    const canonical = iv && sealed && toBase64Url(iv) === parts[1] && toBase64Url(sealed) === parts[2];
    if (parts.length !== 3 || parts[0] !== FORMAT || !canonical || iv.length !== IV_BYTES || sealed.length < 16) {
      throw decryptionFailed('it is not a value EncryptionUtils.encrypt produced (expected v1.<iv>.<data>)');
    }
    const cryptoKey = await importKey(key);
    let opened: ArrayBuffer;
    try {
      opened = await crypto.subtle.decrypt(params(iv, associatedData), cryptoKey, sealed as BufferSource);
    } catch {
      throw decryptionFailed('the data was changed, cut, or encrypted with another key or associated data');
    }
    return fromUtf8(new Uint8Array(opened));
  },
};

function params(iv: Uint8Array, associatedData: string | undefined): AesGcmParams {
  return { name: 'AES-GCM', iv: iv as BufferSource, tagLength: 128, ...(associatedData !== undefined ? { additionalData: utf8(associatedData) as BufferSource } : {}) };
}

async function importKey(key: EncryptionKey): Promise<CryptoKey> {
  if (typeof CryptoKey !== 'undefined' && key instanceof CryptoKey) {
    const algorithm = key.algorithm as AesKeyAlgorithm;
    if (algorithm.name !== 'AES-GCM' || algorithm.length !== 256) throw invalidKey(`a CryptoKey for ${algorithm.name}${algorithm.length ? `-${algorithm.length}` : ''}`);
    return key;
  }
  const raw = typeof key === 'string' ? fromBase64(key.trim()) : key instanceof Uint8Array ? key : undefined;
  if (!raw || raw.length !== 32) {
    throw invalidKey(typeof key === 'string' ? (raw ? `${raw.length} bytes of base64` : 'text that is not base64') : raw ? `${raw.length} bytes` : 'a value of another type');
  }
  return crypto.subtle.importKey('raw', raw as BufferSource, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

function invalidKey(got: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_ENCRYPTION_KEY, `EncryptionUtils needs a 256-bit AES key (32 bytes), got ${got}.`, {
    hint: 'Create one with EncryptionUtils.generateKey() and keep it as a secret; pass it as that base64url text.',
  });
}

function decryptionFailed(why: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_DECRYPTION_FAILED, `Could not decrypt: ${why}.`, {
    hint: 'Decrypt with the key (and associated data) it was encrypted with; never edit encrypted values.',
  });
}
