// The agent's sessions, newest first, with where each came from (chat, webhook, schedule): what the
// Sessions panel polls. The same answer as the demo server's `GET /api/sessions`.
import type { RequestHandler } from './$types';
import { answerSessionList } from '@lousho/demo-agent/server';
import { store } from '$lib/server/agent';

const answer: RequestHandler = async ({ request }) => {
  const { status, headers, body } = await answerSessionList(request.method, store.sessions);
  return new Response(body, { status, headers });
};

// GET (SvelteKit answers HEAD from it); any other method, the shared 405.
export const GET = answer;
export const fallback = answer;
