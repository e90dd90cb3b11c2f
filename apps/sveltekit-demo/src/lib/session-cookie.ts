import type { SessionIdStorage } from '@lousho/build-ai-agent';

/**
 * The cookie that remembers the HTTP session across reloads. A cookie (not sessionStorage) because
 * the server needs it: the page's `load` reads the session with it and renders the chat into the
 * HTML. Only the server writes it (`sessionCookieOptions`): `HttpOnly` (no script in the page can
 * read or steal it), `SameSite=Lax`, `Secure` behind HTTPS, and a session cookie (gone when the
 * browser closes).
 */
export const SESSION_COOKIE = 'lousho_session';

/** Where "New chat" asks the server to forget the session (`DELETE`): the page cannot touch an HttpOnly cookie. */
export const SESSION_COOKIE_PATH = '/api/session';

/**
 * The store's `storage` for the HTTP session id. The server sets the cookie when a turn is sent
 * (the agent route) and the page's `load` hands the id of a session that exists to the store, so
 * the browser neither reads nor writes it; `reset()` ("New chat") asks the server to clear it.
 */
export const sessionCookieStorage: SessionIdStorage = {
  getItem: () => null,
  setItem() {
    // Set by the server with the turn's response (see src/routes/api/agent/[...path]/+server.ts).
  },
  removeItem() {
    void fetch(SESSION_COOKIE_PATH, { method: 'DELETE' }).catch(() => {
      // Offline: the next turn sets the cookie to its own session anyway.
    });
  },
};
