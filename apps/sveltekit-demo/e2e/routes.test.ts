import { describe, expect, it } from 'vitest';
import { appUrl } from './support/sveltekit-demo.js';

// The agent's routes, mounted by the app itself (src/routes/api/agent/[...path]/+server.ts).
describe('the agent handler inside the SvelteKit app', () => {
  it('answers its JSON errors, and sends the security headers and the CSP with the page', async () => {
    const missing = await fetch(appUrl('/api/agent/sessions/nobody_here'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 'LOUSHO_SESSION_NOT_FOUND', message: expect.any(String) } });

    const wrongMethod = await fetch(appUrl('/api/agent/sessions/nobody_here'), { method: 'PUT' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, PATCH, DELETE');

    const created = await fetch(appUrl('/api/agent/sessions'), { method: 'POST' });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ sessionId: expect.any(String) });

    const page = await fetch(appUrl('/'));
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a stale session cookie renders a fresh chat and is cleared', async () => {
    const response = await fetch(appUrl('/'), { headers: { cookie: 'lousho_session=sess_unknown_to_the_server' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Chat with the demo agent');
    expect(response.headers.get('set-cookie')).toMatch(/^lousho_session=;.*Max-Age=0/i);
  });
});
