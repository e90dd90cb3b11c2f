import type { AgentUIState } from '@lousho/build-ai-agent';
import { AGENT_PATH, modelInfo } from '$lib/server/agent';
import { IN_PAGE_MODEL } from '$lib/model-info';
import { modeOf } from '$lib/mode';
import { openedSessionOf } from '@lousho/demo-agent';
import { SESSION_COOKIE, sessionCookieOptions } from '$lib/server/session-cookie';
import type { PageServerLoad } from './$types';

/**
 * What the page renders on the server. Over HTTP, the thread the URL opens (`?session=`, the thread
 * sidebar's), else the session the cookie names, is read through the
 * app's own agent route (SvelteKit's `fetch` calls the `+server.ts` handler in process, with this
 * request's cookies): its `state` becomes the store's `initialState`, so the HTML already holds the
 * transcript and any pending approval.
 */
export const load: PageServerLoad = async ({ url, request, cookies, fetch }) => {
  const mode = modeOf(url);
  if (mode === 'page') return { mode, model: IN_PAGE_MODEL, session: null };

  const opened = openedSessionOf(url);
  const sessionId = opened ?? cookies.get(SESSION_COOKIE);
  let session: { id: string; state?: AgentUIState } | null = null;
  if (sessionId) {
    const response = await fetch(`${AGENT_PATH}/sessions/${encodeURIComponent(sessionId)}`, { headers: { accept: 'application/json' } });
    if (response.ok) session = { id: sessionId, state: ((await response.json()) as { state: AgentUIState }).state };
    // Unknown to the server (it restarted, or the id is not this visitor's): start afresh.
    else if (response.status === 404 || response.status === 400) {
      if (!opened) cookies.delete(SESSION_COOKIE, sessionCookieOptions(url, request.headers));
    }
    // Anything else: the store reads the session itself in the browser, and shows what went wrong.
    else session = { id: sessionId };
  }
  return { mode, model: modelInfo, session };
};
