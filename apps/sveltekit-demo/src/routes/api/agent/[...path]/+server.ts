// The agent's HTTP routes, served by the app itself: every method below /api/agent goes to the
// core handler (a Fetch handler: Request in, Response out, streams included).
import type { RequestHandler } from './$types';
import { handleAgentRequest } from '$lib/server/agent';

export const GET: RequestHandler = ({ request }) => handleAgentRequest(request);
export const POST: RequestHandler = ({ request }) => handleAgentRequest(request);
// Other methods: the handler answers 405 with the right `Allow` header.
export const fallback: RequestHandler = ({ request }) => handleAgentRequest(request);
