import { ANONYMOUS_PRINCIPAL, textOf, type AgentStreamEvent, type ApprovalKind } from '@lousho/build-ai-agent';
import { threadOrigin } from '../display/threads.js';
import { SESSION_ORIGIN_TITLES, type SessionOrigin, type SessionSummary } from '../display/sessions.js';

export type { SessionOrigin, SessionSummary };

/** What the listing reads of a store's session records (any store's `sessions`, e.g. `SqliteStore`'s). */
export interface ListedSessionStore {
  list(filter: { owner: string }): SessionRow[] | Promise<SessionRow[]>;
  /** The session's event log (any store's): where a row's title, the first user message, comes from. */
  eventsAfter?(id: string, afterSeq: number): AgentStreamEvent[] | Promise<AgentStreamEvent[]>;
}

interface SessionRow {
  id: string;
  status: 'idle' | 'running' | 'awaiting-approval' | 'interrupted';
  pendingApproval: { kind: ApprovalKind } | null;
  createdAt: number;
  updatedAt: number;
}

export const SESSIONS_PATH = '/api/sessions';

/** How many sessions `GET /api/sessions` lists (the newest). */
export const SESSION_LIST_LIMIT = 50;

/** Where a session came from, by the prefix trigger adapters give their ids (the thread sidebar reads it the same way). */
export const sessionOrigin = threadOrigin;

/** The longest title a row gets, in characters (a longer first message is cut with an ellipsis). */
export const SESSION_TITLE_CHARS = 80;

/** Titles found so far, per store: a session's first user message never changes once it is logged. */
const titles = new WeakMap<ListedSessionStore, Map<string, string>>();

/** The first user message of a session's log, on one line and cut to `SESSION_TITLE_CHARS`; undefined before there is one. */
async function firstUserText(store: ListedSessionStore, id: string): Promise<string | undefined> {
  if (!store.eventsAfter) return undefined;
  for (const event of await store.eventsAfter(id, 0)) {
    if (event.type !== 'user.message') continue;
    const text = textOf(event.message).replace(/\s+/g, ' ').trim();
    if (text) return text.length > SESSION_TITLE_CHARS ? `${text.slice(0, SESSION_TITLE_CHARS - 1).trimEnd()}…` : text;
  }
  return undefined;
}

/** A row's title: the session's first user message, else what started it (a new chat, the webhook, ...). */
async function sessionTitle(store: ListedSessionStore, id: string, origin: SessionOrigin): Promise<string> {
  let known = titles.get(store);
  if (!known) titles.set(store, (known = new Map()));
  const found = known.get(id);
  if (found !== undefined) return found;
  const text = await firstUserText(store, id);
  if (text === undefined) return SESSION_ORIGIN_TITLES[origin];
  // (Bounded: the listing shows the newest SESSION_LIST_LIMIT, so older ids are dropped first.)
  if (known.size >= SESSION_LIST_LIMIT * 4) known.delete(known.keys().next().value!);
  known.set(id, text);
  return text;
}

/**
 * The sessions the demos can open: those of the HTTP handler's principal (the demo has no
 * `authorize`, so everyone is `anonymous`, and the triggers own their sessions as that principal
 * too), newest first, at most `SESSION_LIST_LIMIT`, each titled by its first user message.
 */
export async function listDemoSessions(store: ListedSessionStore): Promise<SessionSummary[]> {
  const records = await store.list({ owner: ANONYMOUS_PRINCIPAL });
  const newest = records.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).slice(0, SESSION_LIST_LIMIT);
  return Promise.all(
    newest.map(async (record) => {
      const origin = sessionOrigin(record.id);
      return {
        sessionId: record.id,
        origin,
        title: await sessionTitle(store, record.id, origin),
        status: record.status,
        pending: record.pendingApproval?.kind ?? null,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
      };
    }),
  );
}

/** An answer for a server to send as it is (node:http and SvelteKit alike). */
export interface SessionListAnswer {
  status: 200 | 405;
  headers: Record<string, string>;
  /** JSON; a HEAD answer sends the headers only. */
  body: string;
}

/** `GET /api/sessions` (`HEAD` too): the listing; any other method, a 405 that says what to use. */
export async function answerSessionList(method: string, store: ListedSessionStore): Promise<SessionListAnswer> {
  if (method !== 'GET' && method !== 'HEAD') {
    const body = JSON.stringify({ error: { code: 'LOUSHO_METHOD_NOT_ALLOWED', message: 'Use GET.' } });
    return { status: 405, headers: { allow: 'GET, HEAD', 'content-type': 'application/json; charset=utf-8' }, body };
  }
  const body = JSON.stringify({ sessions: await listDemoSessions(store) });
  return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }, body };
}
