import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createWebhookAuthenticator } from '../../src/index.js';

const SECRET = 'property-secret';

describe('webhook authentication (properties)', () => {
  it('accepts exactly the bodies signed with the secret, whatever their bytes', async () => {
    const check = createWebhookAuthenticator({ type: 'hmac', secret: SECRET });
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), fc.uint8Array({ minLength: 1, maxLength: 512 }), async (body, other) => {
        const digest = createHmac('sha256', SECRET).update(body).digest('hex');
        const req = (signature: string, rawBody: Uint8Array) => ({ method: 'POST', url: '/', headers: { 'x-signature-256': signature }, rawBody });
        expect(await check(req(`sha256=${digest}`, body))).toEqual({ ok: true });
        expect(await check(req(`sha256=${digest.toUpperCase()}`, body))).toEqual({ ok: true });
        const altered = new Uint8Array([...body, ...other]);
        expect((await check(req(`sha256=${digest}`, altered))).ok).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('any signature header text is refused without throwing, and the reason never repeats it', async () => {
    const check = createWebhookAuthenticator({ type: 'hmac', secret: SECRET, timestampHeader: 'x-ts' });
    const bearer = createWebhookAuthenticator({ type: 'bearer', token: 'tok' });
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), fc.string({ maxLength: 20 }), async (signature, stamp) => {
        const result = await check({ method: 'POST', url: '/', headers: { 'x-signature-256': signature, 'x-ts': stamp }, rawBody: new Uint8Array() });
        expect(result.ok).toBe(false);
        if (!result.ok && signature.length > 8) expect(result.reason).not.toContain(signature);
        const token = await bearer({ method: 'POST', url: '/', headers: { authorization: signature }, rawBody: new Uint8Array() });
        expect(token.ok).toBe(/^Bearer\s+tok$/i.test(signature.trim()));
      }),
      { numRuns: 300 },
    );
  });
});
