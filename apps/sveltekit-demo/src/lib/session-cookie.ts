import type { SessionIdStorage } from '@lousho/build-ai-agent';

/**
 * The cookie that remembers the HTTP session across reloads. A cookie (not sessionStorage) because
 * the server needs it: the page's `load` reads the session with it and renders the chat into the
 * HTML. A session cookie (gone when the browser closes), `SameSite=Lax`, readable by the page.
 */
export const SESSION_COOKIE = 'lousho_session';

/**
 * The store's `storage` for the HTTP session id: the browser writes the cookie (on the first
 * `send`, cleared by `reset()`); only the server reads it, in `load`, which hands the page the id
 * of a session that exists. So a stale id (e.g. the server restarted) is never restored.
 */
export const sessionCookieStorage: SessionIdStorage = {
  getItem: () => null,
  setItem(name, value) {
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; SameSite=Lax${secure}`;
  },
  removeItem(name) {
    document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Lax`;
  },
};
