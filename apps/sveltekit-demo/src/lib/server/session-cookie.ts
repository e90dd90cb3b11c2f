import type { Cookies } from '@sveltejs/kit';
import { SESSION_COOKIE } from '$lib/session-cookie';

/**
 * True when the visitor reached the app over HTTPS: the request's own URL says so (adapter-node
 * with `ORIGIN` or `PROTOCOL_HEADER`, `vite preview` with TLS), or the proxy in front of it does
 * (`X-Forwarded-Proto`, its first value when proxies chain).
 */
export function isHttps(url: URL, headers: Headers): boolean {
  if (url.protocol === 'https:') return true;
  return headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/** The session cookie's attributes: HttpOnly, SameSite=Lax, the whole site, Secure behind HTTPS; no expiry (a session cookie). */
export function sessionCookieOptions(url: URL, headers: Headers): Parameters<Cookies['set']>[2] {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps(url, headers) };
}

/**
 * The session a request to the agent route starts a turn in: `POST <base>/sessions/:id/messages`.
 * Other routes (reads, approvals, stop) never change which session the visitor is on.
 */
export function turnSessionId(method: string, pathname: string, basePath: string): string | undefined {
  if (method !== 'POST' || !pathname.startsWith(`${basePath}/sessions/`)) return undefined;
  const match = /^([^/]+)\/messages$/.exec(pathname.slice(basePath.length + '/sessions/'.length));
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

export { SESSION_COOKIE };
