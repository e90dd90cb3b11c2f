// "New chat": forgets which session this visitor is on (the cookie is HttpOnly, so only the server can).
import type { RequestHandler } from './$types';
import { SESSION_COOKIE, sessionCookieOptions } from '$lib/server/session-cookie';

export const DELETE: RequestHandler = ({ url, request, cookies }) => {
  cookies.delete(SESSION_COOKIE, sessionCookieOptions(url, request.headers));
  return new Response(null, { status: 204 });
};
