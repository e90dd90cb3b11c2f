import { ANONYMOUS_PRINCIPAL, type ApprovalKind } from '@lousho/core';

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

/** Where a session came from: a person in a demo, or a trigger (its adapter names the id). */
export type SessionOrigin = 'chat' | 'webhook' | 'cron' | 'slack';

/** One row of `GET /api/sessions`. */
export interface SessionSummary {
  sessionId: string;
  origin: SessionOrigin;
  status: SessionRow['status'];
  /** The kind of pause when the session waits for a person. */
  pending: ApprovalKind | null;
  createdAt: number;
  updatedAt: number;
}

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
