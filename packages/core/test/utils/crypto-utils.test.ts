import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EncryptionUtils, sha256 } from '../../src/index.js';

describe('sha256', () => {
  it('matches the FIPS 180-2 test vectors, for text and bytes', async () => {
    expect(await sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
    expect(await sha256(new TextEncoder().encode('abc'))).toBe(await sha256('abc'));
    // Text is hashed as UTF-8.
    expect(await sha256('é')).toBe(await sha256(new Uint8Array([0xc3, 0xa9])));
  });
});

describe('EncryptionUtils (AES-256-GCM)', () => {
  const key = EncryptionUtils.generateKey();

  it('round-trips any text, and never encrypts the same text the same way twice', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), async (text) => {
        const a = await EncryptionUtils.encrypt(text, key);
        const b = await EncryptionUtils.encrypt(text, key);
        expect(a).not.toBe(b);
        expect(a).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
        expect(await EncryptionUtils.decrypt(a, key)).toBe(text);
      }),
      { numRuns: 50 },
    );
  });

  it('refuses any change to the encrypted value with LOUSHO_DECRYPTION_FAILED, never altered text', async () => {
    const sealed = await EncryptionUtils.encrypt('pay 10 EUR to alice', key);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 3, max: sealed.length - 1 }), fc.integer({ min: 1, max: 63 }), async (at, shift) => {
        if (sealed[at] === '.') return;
        const changed = sealed.slice(0, at) + alphabet[(alphabet.indexOf(sealed[at]!) + shift) % 64] + sealed.slice(at + 1);
        await expect(EncryptionUtils.decrypt(changed, key)).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
      }),
      { numRuns: 300 },
    );
    await expect(EncryptionUtils.decrypt(sealed.slice(0, -4), key)).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
    await expect(EncryptionUtils.decrypt('v2' + sealed.slice(2), key)).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
    await expect(EncryptionUtils.decrypt('garbage', key)).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
    await expect(EncryptionUtils.decrypt(sealed, EncryptionUtils.generateKey())).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
  });

  it('authenticates associated data: a value sealed for one context does not open in another', async () => {
    const sealed = await EncryptionUtils.encrypt('secret', key, 'session:a');
    expect(await EncryptionUtils.decrypt(sealed, key, 'session:a')).toBe('secret');
    await expect(EncryptionUtils.decrypt(sealed, key, 'session:b')).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
    await expect(EncryptionUtils.decrypt(sealed, key)).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
  });

  it('takes 32-byte keys as base64, base64url, bytes or an AES-GCM CryptoKey, and names what is wrong with others', async () => {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const b64 = btoa(String.fromCharCode(...bytes));
    const sealed = await EncryptionUtils.encrypt('x', bytes);
    expect(await EncryptionUtils.decrypt(sealed, b64)).toBe('x');
    const cryptoKey = await crypto.subtle.importKey('raw', bytes, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
    expect(await EncryptionUtils.decrypt(sealed, cryptoKey)).toBe('x');
    expect(EncryptionUtils.generateKey()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(EncryptionUtils.encrypt('x', 'shortkey')).rejects.toMatchObject({ code: 'LOUSHO_INVALID_ENCRYPTION_KEY', message: expect.stringContaining('got 6 bytes of base64') });
    await expect(EncryptionUtils.encrypt('x', 'not base64 at all!')).rejects.toMatchObject({ code: 'LOUSHO_INVALID_ENCRYPTION_KEY' });
    await expect(EncryptionUtils.encrypt('x', new Uint8Array(16))).rejects.toMatchObject({ code: 'LOUSHO_INVALID_ENCRYPTION_KEY', message: expect.stringContaining('got 16 bytes') });
    const cbc = await crypto.subtle.importKey('raw', bytes, { name: 'AES-CBC' }, false, ['encrypt', 'decrypt']);
    await expect(EncryptionUtils.encrypt('x', cbc)).rejects.toMatchObject({ code: 'LOUSHO_INVALID_ENCRYPTION_KEY', message: expect.stringContaining('AES-CBC') });
  });
});
