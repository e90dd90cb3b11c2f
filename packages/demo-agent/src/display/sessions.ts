/** How the demos' Sessions panel names where a session came from. */
export const SESSION_ORIGIN_LABELS: Readonly<Record<'chat' | 'webhook' | 'cron' | 'slack', string>> = {
  chat: 'Chat',
  webhook: 'Webhook',
  cron: 'Schedule',
  slack: 'Slack',
};

/** A row's title before its session has a user message: what started it. */
export const SESSION_ORIGIN_TITLES: Readonly<Record<'chat' | 'webhook' | 'cron' | 'slack', string>> = {
  chat: 'New chat',
  webhook: 'Webhook run',
  cron: 'Scheduled run',
  slack: 'Slack message',
};

/** And what it is doing (the server's session status). */
export const SESSION_STATE_LABELS: Readonly<Record<'idle' | 'running' | 'awaiting-approval' | 'interrupted', string>> = {
  idle: 'Idle',
  running: 'Running',
  'awaiting-approval': 'Waiting for approval',
  interrupted: 'Interrupted',
};

/** Where a session came from: a person in a demo, or a trigger (its adapter names the id). */
export type SessionOrigin = keyof typeof SESSION_ORIGIN_LABELS;

/** One row of the demos' `GET /api/sessions` (`@lousho/demo-agent/server` makes them). */
export interface SessionSummary {
  sessionId: string;
  origin: SessionOrigin;
  /** What the row shows: the first user message (cut), or what started the session (`SESSION_ORIGIN_TITLES`). */
  title: string;
  status: keyof typeof SESSION_STATE_LABELS;
  /** The kind of pause when the session waits for a person. */
  pending: 'tool' | 'question' | 'client' | null;
  createdAt: number;
  updatedAt: number;
}

const POLL_MS = 1500;

/**
 * Polls the server's session list (the demo server's or the SvelteKit demo's) (newest first) every 1.5 s and hands each list to `onList`,
 * so trigger runs show up on their own; an unreachable server keeps the last list. Returns the stop
 * function. The demos' hooks wrap it in their framework's lifecycle.
 */
export function pollSessionList(onList: (sessions: SessionSummary[]) => void): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async (): Promise<void> => {
    try {
      const response = await fetch('/api/sessions', { headers: { accept: 'application/json' } });
      if (response.ok && !stopped) onList(((await response.json()) as { sessions: SessionSummary[] }).sessions);
    } catch {
      // The server is away: keep the last list; the model notice already says so.
    }
    if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
  };
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** The attributes of a row's button, the same in every demo (their browser tests find rows by them). */
export function sessionItemAttributes(session: SessionSummary, current: string | undefined) {
  return {
    'data-testid': 'session-item',
    'data-session-id': session.sessionId,
    'data-origin': session.origin,
    'aria-current': session.sessionId === current ? ('true' as const) : undefined,
  };
}

/** What a row says: where the session came from, its title, and what it is doing (a pause for a person wins over the status). */
export function sessionItemLabels(session: SessionSummary): { origin: string; title: string; state: string } {
  return {
    origin: SESSION_ORIGIN_LABELS[session.origin],
    // (A server from before titles: what started the session, never the raw id.)
    title: session.title || SESSION_ORIGIN_TITLES[session.origin],
    state: SESSION_STATE_LABELS[session.pending ? 'awaiting-approval' : session.status],
  };
}

/** Trigger adapters prefix their ids (`webhook-`, `cron-`, `slack:<channel>:`): the part that tells sessions apart. */
const TRIGGER_PREFIX = /^(?:webhook-|cron-|slack:[^:]*:)/;

/** A session id short enough for the status bar: its first 8 characters after any trigger prefix (`session webhook-` told nothing). */
export function shortSessionId(id: string): string {
  return id.replace(TRIGGER_PREFIX, '').slice(0, 8);
}

/** The session opened from the Sessions panel lives in the URL (`?session=<id>`), so a reload keeps it. */
export function openedSessionOf(url: URL): string | undefined {
  return url.searchParams.get('session') || undefined;
}

/** The page's URL with `id` as the opened session (none: the tab's own chat). */
export function urlForSession(id: string | undefined, current: URL): URL {
  const url = new URL(current);
  if (id) url.searchParams.set('session', id);
  else url.searchParams.delete('session');
  return url;
}

/** The opened session of the page's own URL (the React and Vue demos; SvelteKit reads `page.url`). */
export function readOpenedSession(): string | undefined {
  return openedSessionOf(new URL(window.location.href));
}

/** Puts the opened session into the page's URL without a navigation. */
export function writeOpenedSession(id: string | undefined): void {
  window.history.replaceState(window.history.state, '', urlForSession(id, new URL(window.location.href)));
}
