import { openDemo, sendAndWaitForReply, useBrowser } from 'e2e/kit';
import { describe, expect, it } from 'vitest';
import { appUrl, sveltekitDemo } from './support/sveltekit-demo.js';

const browser = useBrowser();

/** Sends a turn through the agent route and returns its Set-Cookie header (the stream is read to its end). */
async function turnCookie(sessionId: string, headers: Record<string, string> = {}): Promise<string | null> {
  const response = await fetch(appUrl(`/api/agent/sessions/${sessionId}/messages`), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ input: 'echo hi' }),
  });
  expect(response.status).toBe(200);
  await response.text();
  return response.headers.get('set-cookie');
}

describe('the session cookie', () => {
  it('is set by the server with the turn: HttpOnly, SameSite=Lax, and Secure only behind HTTPS', async () => {
    const plain = await turnCookie('sess_cookie_plain');
    expect(plain).toMatch(/^lousho_session=sess_cookie_plain; /);
    expect(plain).toMatch(/; HttpOnly(;|$)/);
    expect(plain).toMatch(/; SameSite=Lax(;|$)/);
    expect(plain).toMatch(/; Path=\/(;|$)/);
    expect(plain).not.toMatch(/Secure/);
    expect(plain).not.toMatch(/Expires|Max-Age/i);

    // Behind a proxy that ends TLS (X-Forwarded-Proto: https, the first of a chain).
    expect(await turnCookie('sess_cookie_tls', { 'x-forwarded-proto': 'https' })).toMatch(/^lousho_session=sess_cookie_tls; .*; Secure(;|$)/);
    expect(await turnCookie('sess_cookie_chain', { 'x-forwarded-proto': 'https, http' })).toMatch(/; Secure(;|$)/);

    // Reading a session or a failed turn never changes the visitor's session.
    const read = await fetch(appUrl('/api/agent/sessions/sess_cookie_plain'));
    expect(read.status).toBe(200);
    expect(read.headers.get('set-cookie')).toBeNull();
    const refused = await fetch(appUrl('/api/agent/sessions/sess_cookie_plain/messages'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('set-cookie')).toBeNull();

    // "New chat" asks the server to forget it.
    const cleared = await fetch(appUrl('/api/session'), { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect(cleared.headers.get('set-cookie')).toMatch(/^lousho_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('in the browser: the page cannot read it, a reload renders its chat, New chat forgets it', async () => {
    const { page, context, pageErrors, close } = await openDemo(browser(), sveltekitDemo, 'http');
    await sendAndWaitForReply(page, 'echo kept by the server');
    const cookie = (await context.cookies()).find((c) => c.name === 'lousho_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/', expires: -1 });
    expect(await page.evaluate(() => document.cookie)).not.toContain('lousho_session');

    await page.reload();
    await page.locator('[data-testid="message"][data-role="user"]').filter({ hasText: 'echo kept by the server' }).waitFor();

    await page.getByRole('navigation', { name: 'Threads' }).getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('region', { name: 'Getting started' }).waitFor();
    await expect.poll(async () => (await context.cookies()).some((c) => c.name === 'lousho_session')).toBe(false);
    await page.reload();
    await page.getByRole('region', { name: 'Getting started' }).waitFor();
    expect(pageErrors).toEqual([]);
    await close();
  });
});
