import { describe, expect, it } from 'vitest';
import { textSealer } from '../src/text-sealer.js';
import { EncryptionUtils } from '@lousho/protocol';

describe('textSealer (the Node stores\' encryption)', () => {
  const key = EncryptionUtils.generateKey();

  it('seals in EncryptionUtils\' format, bound to where the value lives', async () => {
    const sealer = textSealer({ key }, 'Test store');
    const sealed = sealer.seal('{"secret":"hunter2"}', 'event:s1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('hunter2');
    expect(sealer.seal('same', 'x')).not.toBe(sealer.seal('same', 'x'));
    expect(sealer.open(sealed, 'event:s1')).toBe('{"secret":"hunter2"}');
    expect(await EncryptionUtils.decrypt(sealed, key, 'lousho:event:s1')).toBe('{"secret":"hunter2"}');
    expect(() => sealer.open(sealed, 'event:s2')).toThrow(expect.objectContaining({ code: 'LOUSHO_DECRYPTION_FAILED' }));
    expect(() => textSealer({ key: EncryptionUtils.generateKey() }, 'Test store').open(sealed, 'event:s1')).toThrow(/another key/);
  });

  it('refuses a clear value under a key, a sealed value without one, bad keys, and rotation', () => {
    const sealed = textSealer({ key }, 'Test store').seal('{}', 'c');
    expect(() => textSealer({ key }, 'Test store').open('{"a":1}', 'c')).toThrow(expect.objectContaining({ code: 'LOUSHO_DECRYPTION_FAILED', message: expect.stringContaining('stored unencrypted') }));
    expect(() => textSealer(undefined, 'Test store').open(sealed, 'c')).toThrow(expect.objectContaining({ code: 'LOUSHO_DECRYPTION_FAILED', message: expect.stringContaining('no encryption key') }));
    expect(textSealer(undefined, 'Test store').open('{"a":1}', 'c')).toBe('{"a":1}');
    expect(() => textSealer({ key: 'short' }, 'Test store')).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_ENCRYPTION_KEY' }));
    expect(() => textSealer({ key, previousKeys: [key] }, 'Test store')).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG', message: expect.stringContaining('key rotation is not supported') }));
    expect(() => textSealer('key', 'Test store')).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });

  it('takes a CryptoKey too', async () => {
    const cryptoKey = await crypto.subtle.importKey('raw', crypto.getRandomValues(new Uint8Array(32)), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
    const sealer = textSealer({ key: cryptoKey }, 'Test store');
    const sealed = sealer.seal('hello', 'c');
    expect(await EncryptionUtils.decrypt(sealed, cryptoKey, 'lousho:c')).toBe('hello');
  });
});
