import type { SessionSummary as ThreadSummary } from '@lousho/build-ai-agent/sessions';
import { SESSION_ORIGIN_LABELS, SESSION_ORIGIN_TITLES, SESSION_STATE_LABELS, urlForSession, type SessionOrigin } from './sessions.js';

// The demos' thread sidebar: what a row says and carries, the same in every demo (their browser
// tests find rows by these attributes), over `@lousho/client/sessions`' list.

export type { ThreadSummary };

/**
 * Where a thread came from. Trigger adapters name the sessions they open `webhook-<uuid>`,
 * `cron-<uuid>` and `slack:<channel>:<ts>`; the demos' clients make ids of their own.
 */
export function threadOrigin(id: string): SessionOrigin {
  if (id.startsWith('webhook-')) return 'webhook';
  if (id.startsWith('cron-')) return 'cron';
  if (id.startsWith('slack:')) return 'slack';
  return 'chat';
}

/** Tokens in a short form: 950, 12.3k, 1.2M. */
function shortCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** What a row says: its origin, title (the first message, else what started it), state and usage. */
export function threadRowLabels(thread: ThreadSummary): { origin: string; title: string; state: string; usage: string } {
  const origin = threadOrigin(thread.id);
  const usage = thread.usage
    ? `${shortCount(thread.usage.totalTokens)} tokens${thread.usage.costUsd !== undefined ? ` · $${thread.usage.costUsd.toFixed(thread.usage.costUsd < 0.01 ? 4 : 2)}` : ''}`
    : '';
  return {
    origin: SESSION_ORIGIN_LABELS[origin],
    title: thread.title?.trim() || SESSION_ORIGIN_TITLES[origin],
    state: SESSION_STATE_LABELS[thread.status],
    usage,
  };
}

/** The attributes of a row's open button; the opened thread is `aria-current="page"`. */
export function threadItemAttributes(thread: ThreadSummary, current: string | undefined) {
  return {
    'data-testid': 'thread-item',
    'data-session-id': thread.id,
    'data-origin': threadOrigin(thread.id),
    'data-status': thread.status,
    'aria-current': thread.id === current ? ('page' as const) : undefined,
  };
}

/** How often the sidebar reads the list again while the page is shown: trigger runs appear on their own. */
export const THREAD_LIST_REFRESH_MS = 2000;

/** Calls `refresh` every `THREAD_LIST_REFRESH_MS` while the page is visible; returns the stop function. */
export function keepThreadsFresh(refresh: () => unknown): () => void {
  const timer = setInterval(() => {
    if (document.visibilityState === 'visible') void refresh();
  }, THREAD_LIST_REFRESH_MS);
  return () => clearInterval(timer);
}

/**
 * Puts `id` (none: a new thread) into the page's URL as a history entry, so back and forward switch
 * threads (`replace` for a change the user did not navigate to, e.g. a new thread getting its id).
 */
export function navigateToThread(id: string | undefined, replace = false): void {
  const url = urlForSession(id, new URL(window.location.href));
  if (url.href === window.location.href) return;
  if (replace) window.history.replaceState(window.history.state, '', url);
  else window.history.pushState(null, '', url);
}
