// The agent's HTTP routes, served by the app itself: every method below /api/agent goes to the
// core handler (a Fetch handler: Request in, Response out, streams included).
import type { RequestHandler } from './$types';
import { AGENT_PATH, handleAgentRequest } from '$lib/server/agent';
import { SESSION_COOKIE, sessionCookieOptions, turnSessionId } from '$lib/server/session-cookie';

export const GET: RequestHandler = ({ request }) => handleAgentRequest(request);

/** A turn the handler accepted also sets the session cookie, so a reload renders this session. */
export const POST: RequestHandler = async ({ request, url, cookies }) => {
  const response = await handleAgentRequest(request);
  const sessionId = response.ok ? turnSessionId(request.method, url.pathname, AGENT_PATH) : undefined;
  if (sessionId !== undefined) cookies.set(SESSION_COOKIE, sessionId, sessionCookieOptions(url, request.headers));
  return response;
};

// Other methods: the handler answers 405 with the right `Allow` header.
export const fallback: RequestHandler = ({ request }) => handleAgentRequest(request);
