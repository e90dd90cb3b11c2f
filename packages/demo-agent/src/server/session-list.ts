import { ANONYMOUS_PRINCIPAL, type ApprovalKind } from '@lousho/build-ai-agent';
import type { SessionOrigin, SessionSummary } from '../display/sessions.js';

export type { SessionOrigin, SessionSummary };

/** What the listing reads of a store's session records (any store's `sessions`, e.g. `SqliteStore`'s). */
export interface ListedSessionStore {
  list(filter: { owner: string }): SessionRow[] | Promise<SessionRow[]>;
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

/**
 * Trigger adapters name the sessions they open `webhook-<uuid>`, `cron-<uuid>` and
 * `slack:<channel>:<ts>`; the demos' clients make ids of their own (no such prefix).
 */
export function sessionOrigin(id: string): SessionOrigin {
  if (id.startsWith('webhook-')) return 'webhook';
  if (id.startsWith('cron-')) return 'cron';
  if (id.startsWith('slack:')) return 'slack';
  return 'chat';
}

/**
 * The sessions the demos can open: those of the HTTP handler's principal (the demo has no
 * `authorize`, so everyone is `anonymous`, and the triggers own their sessions as that principal
 * too), newest first, at most `SESSION_LIST_LIMIT`.
 */
export async function listDemoSessions(store: ListedSessionStore): Promise<SessionSummary[]> {
  const records = await store.list({ owner: ANONYMOUS_PRINCIPAL });
  return records
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
    .slice(0, SESSION_LIST_LIMIT)
    .map((record) => ({
      sessionId: record.id,
      origin: sessionOrigin(record.id),
      status: record.status,
      pending: record.pendingApproval?.kind ?? null,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    }));
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
