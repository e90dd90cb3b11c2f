import { expect, it } from 'vitest';
import type { ReplayStore } from '@lousho/core';
import { createWebhookAuthenticator } from '@lousho/node';

/** A signed request (HMAC-SHA256 of `${timestamp}.${body}`) as a webhook sender makes it. */
export async function signedRequest(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const digest = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${timestamp}.${body}`)));
  const headers = { 'x-ts': String(timestamp), 'x-signature-256': `sha256=${[...digest].map((b) => b.toString(16).padStart(2, '0')).join('')}` };
  return { method: 'POST', url: '/hook', headers, rawBody: new TextEncoder().encode(body) };
}

/**
 * What a shared replay store must do: a signed request accepted through one store handle is refused
 * as a replay through another handle on the same storage (another process), and after the first is
 * closed and the storage opened again (a restart); concurrent claims of one key let exactly one in.
 */
export function replayStoreContract(name: string, open: () => Promise<{ first: ReplayStore; second: ReplayStore; reopen: () => Promise<ReplayStore> }>) {
  it(`${name}: a replay is refused by another process on the same store, and after a restart`, async () => {
    const { first, second, reopen } = await open();
    const auth = { type: 'hmac', secret: 'hook-secret', timestampHeader: 'x-ts' } as const;
    const inFirst = createWebhookAuthenticator(auth, { replayStore: first });
    const inSecond = createWebhookAuthenticator(auth, { replayStore: second });
    const request = await signedRequest('hook-secret', '{"n":1}');
    expect(await inFirst(request)).toEqual({ ok: true });
    expect(await inSecond(request)).toEqual({ ok: false, reason: 'replayed request (this signature was already accepted)' });
    const restarted = createWebhookAuthenticator(auth, { replayStore: await reopen() });
    expect(await restarted(request)).toEqual({ ok: false, reason: 'replayed request (this signature was already accepted)' });
    expect(await restarted(await signedRequest('hook-secret', '{"n":2}'))).toEqual({ ok: true });
  });

  it(`${name}: of 20 concurrent claims of one key, exactly one wins; an expired key can be claimed again`, async () => {
    const { first, second } = await open();
    const key = `k-${Math.random()}`;
    const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? first : second).claim(key, Date.now() + 60_000)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const old = `old-${Math.random()}`;
    expect(await first.claim(old, Date.now() - 1)).toBe(true);
    expect(await second.claim(old, Date.now() + 60_000)).toBe(true);
    expect(await first.claim(old, Date.now() + 60_000)).toBe(false);
  });
}
