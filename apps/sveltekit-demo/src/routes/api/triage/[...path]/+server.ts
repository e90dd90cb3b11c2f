// The triage flow's HTTP routes, served by the app itself: the same handler as the agent's, for a
// flow served like an agent (createFlowAgent).
import type { RequestHandler } from './$types';
import { handleTriageRequest } from '$lib/server/triage';

export const GET: RequestHandler = ({ request }) => handleTriageRequest(request);
export const POST: RequestHandler = ({ request }) => handleTriageRequest(request);
export const fallback: RequestHandler = ({ request }) => handleTriageRequest(request);
