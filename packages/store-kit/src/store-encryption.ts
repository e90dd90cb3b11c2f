import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { EncryptionKey } from '@lousho/protocol';
import { fromBase64 } from '@lousho/protocol';

/**
 * The `encryption` option of the SQLite, PostgreSQL, IndexedDB stores and of `FileStorageService`:
 * the AES-256 key (as `EncryptionUtils` takes it) that seals every value the store keeps.
 * One key per store; rotation is not supported (an option asking for it is refused).
 */
export interface StoreEncryptionOptions {
  key: EncryptionKey;
}

/** Encrypted values start with the format tag of `EncryptionUtils.encrypt`; JSON never does. */
export const isSealed = (text: string): boolean => text.startsWith('v1.');

/** Seals and opens the text a store keeps; `context` (where the value lives) is authenticated with it. */
export interface TextSealer {
  readonly encrypted: boolean;
  seal(text: string, context: string): string;
  open(text: string, context: string): string;
}

/** The same, for stores that can only encrypt asynchronously (Web Crypto: IndexedDB). */
export interface AsyncTextSealer {
  readonly encrypted: boolean;
  seal(text: string, context: string): Promise<string>;
  open(text: string, context: string): Promise<string>;
}

/** The option checked: the key, or undefined without encryption. Anything else is a clear error. */
export function encryptionKeyOf(option: unknown, store: string): EncryptionKey | undefined {
  if (option === undefined) return undefined;
  if (typeof option !== 'object' || option === null || !('key' in option)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${store}: the encryption option must be { key }.`, { hint: 'encryption: { key: process.env.AGENT_STORE_KEY } (a key from EncryptionUtils.generateKey()).' });
  }
  const extra = Object.keys(option).filter((name) => name !== 'key');
  if (extra.length > 0) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${store}: encryption takes only { key } (got ${extra.join(', ')}); key rotation is not supported.`, {
      hint: 'To change the key, copy the sessions into a new store opened with the new key (see docs/durable.md).',
    });
  }
  return (option as StoreEncryptionOptions).key;
}

/** Reading a value stored in the clear from an encrypted store, or a sealed one without the key: refused. */
export function sealMismatch(store: string, sealed: boolean): SDKError {
  return new SDKError(
    ERROR_CODES.LOUSHO_DECRYPTION_FAILED,
    sealed ? `${store} holds encrypted values, and no encryption key was given.` : `${store} is opened with an encryption key but holds a value stored unencrypted.`,
    {
      hint: sealed
        ? 'Open it with the encryption: { key } it was written with.'
        : 'Encryption is turned on for a new store: values written without a key are never read as if they were sealed (copy the sessions over instead).',
    },
  );
}

/** No encryption: values go in as they are, and a sealed value is refused (the key is missing). */
export function plainSealer(store: string): TextSealer {
  return {
    encrypted: false,
    seal: (text) => text,
    open(text) {
      if (isSealed(text)) throw sealMismatch(store, true);
      return text;
    },
  };
}

/**
 * A sealer over Web Crypto (`EncryptionUtils`), for stores that run in a browser (IndexedDB). The
 * same format and context binding as the Node stores' sealer: a value either one sealed opens with
 * `EncryptionUtils.decrypt(value, key, 'lousho:' + context)`.
 */
export function webCryptoSealer(option: unknown, store: string, utils: { encrypt(text: string, key: EncryptionKey, ad?: string): Promise<string>; decrypt(text: string, key: EncryptionKey, ad?: string): Promise<string> }): AsyncTextSealer {
  const key = encryptionKeyOf(option, store);
  if (key === undefined) {
    const plain = plainSealer(store);
    return { encrypted: false, seal: async (text) => text, open: async (text, context) => plain.open(text, context) };
  }
  const raw = rawKey(key);
  // Imported once (not per value); a CryptoKey is used as it is.
  let imported: Promise<EncryptionKey> | undefined;
  const cryptoKey = () => (imported ??= raw ? crypto.subtle.importKey('raw', raw as BufferSource, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']) : Promise.resolve(key));
  return {
    encrypted: true,
    seal: async (text, context) => utils.encrypt(text, await cryptoKey(), `lousho:${context}`),
    async open(text, context) {
      if (!isSealed(text)) throw sealMismatch(store, false);
      return utils.decrypt(text, await cryptoKey(), `lousho:${context}`);
    },
  };
}

/** The 32 bytes of a key given as text or bytes (checked now, so a bad key fails at once); undefined for a CryptoKey. */
export function rawKey(key: EncryptionKey): Uint8Array | undefined {
  if (typeof CryptoKey !== 'undefined' && key instanceof CryptoKey) return undefined;
  const raw = typeof key === 'string' ? fromBase64(key.trim()) : key instanceof Uint8Array ? key : undefined;
  if (!raw || raw.length !== 32) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_ENCRYPTION_KEY, `A store's encryption key must be a 256-bit AES key (32 bytes), got ${typeof key === 'string' ? (raw ? `${raw.length} bytes of base64` : 'text that is not base64') : raw ? `${raw.length} bytes` : 'a value of another type'}.`, {
      hint: 'Create one with EncryptionUtils.generateKey() and keep it as a secret; pass it as that base64url text.',
    });
  }
  return raw;
}
