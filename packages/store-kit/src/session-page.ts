import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { AgentStreamEvent } from '@lousho/protocol';
import type { Message } from '@lousho/protocol';
import type { AgentStore, EventToAppend, SessionPage, SessionRecord } from '@lousho/protocol';

/** The longest session title, in characters (a default title is cut there, a longer rename refused). */
export const SESSION_TITLE_MAX_LENGTH = 100;
/** The most sessions a thread-list page holds. */
export const SESSION_PAGE_MAX_LIMIT = 100;
/** How many sessions a thread-list page holds when no limit is given. */
export const SESSION_PAGE_DEFAULT_LIMIT = 20;

/** Where a page starts: after the session with this `updatedAt` and `id` (newest first). */
export interface SessionCursor {
  updatedAt: number;
  id: string;
}

/** The text of a message, whitespace collapsed: what a default title is made of. */
function messageText(message: Message): string {
  const content = message.content as unknown;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { type?: string; text?: unknown }) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join(' ');
}

/** The default title for a session whose log gets these events: its first user message, trimmed and bounded; undefined without one. */
export function titleFromEvents(events: readonly EventToAppend[] | readonly AgentStreamEvent[]): string | undefined {
  for (const entry of events) {
    const event = ('event' in entry ? entry.event : entry) as { type: string; message?: Message };
    if (event.type !== 'user.message' || !event.message) continue;
    const text = messageText(event.message).replace(/\s+/g, ' ').trim();
    // A short text is its own title (one string kept, not two); a long one is cut by code points.
    if (text !== '') return text.length <= SESSION_TITLE_MAX_LENGTH ? text : [...text].slice(0, SESSION_TITLE_MAX_LENGTH).join('');
  }
  return undefined;
}

/** A title as given to a rename, trimmed; `LOUSHO_SESSION_TITLE_INVALID` unless it is 1 to 100 characters. */
export function checkSessionTitle(title: unknown): string {
  const trimmed = typeof title === 'string' ? title.trim() : '';
  if (trimmed === '' || [...trimmed].length > SESSION_TITLE_MAX_LENGTH) {
    throw new SDKError(ERROR_CODES.LOUSHO_SESSION_TITLE_INVALID, `A session title must be a string of 1 to ${SESSION_TITLE_MAX_LENGTH} characters.`, {
      hint: 'Send a non-empty title of at most 100 characters.',
    });
  }
  return trimmed;
}

/** A page limit, defaulted and checked: `LOUSHO_SESSION_LIMIT_INVALID` unless a whole number from 1 to 100. */
export function checkPageLimit(limit: unknown): number {
  if (limit === undefined) return SESSION_PAGE_DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > SESSION_PAGE_MAX_LIMIT) {
    throw new SDKError(ERROR_CODES.LOUSHO_SESSION_LIMIT_INVALID, `A session page limit must be a whole number from 1 to ${SESSION_PAGE_MAX_LIMIT}.`, {
      hint: 'Pass a limit from 1 to 100, or leave it out.',
    });
  }
  return limit;
}

const cursorError = (): SDKError =>
  new SDKError(ERROR_CODES.LOUSHO_SESSION_CURSOR_INVALID, 'The session page cursor is not one this store wrote.', {
    hint: 'Pass back the nextCursor of the previous page unchanged, or leave it out for the first page.',
  });

/** The opaque cursor after `record`: base64url of `[updatedAt, id]`. */
export function encodeSessionCursor(record: Pick<SessionRecord, 'updatedAt' | 'id'>): string {
  const bytes = new TextEncoder().encode(JSON.stringify([record.updatedAt, record.id]));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The position a cursor names; `LOUSHO_SESSION_CURSOR_INVALID` for anything `encodeSessionCursor` did not write. */
export function decodeSessionCursor(cursor: string): SessionCursor {
  if (cursor.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw cursorError();
  let value: unknown;
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
  } catch {
    throw cursorError();
  }
  if (!Array.isArray(value) || value.length !== 2 || !Number.isSafeInteger(value[0]) || typeof value[1] !== 'string') throw cursorError();
  return { updatedAt: value[0] as number, id: value[1] as string };
}

/** Newest activity first, then id descending: the order of every store's pages. */
export function newestFirst(a: SessionRecord, b: SessionRecord): number {
  return b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** True when `record` comes after the cursor's position in `newestFirst` order. */
export function isAfterCursor(record: SessionRecord, cursor: SessionCursor): boolean {
  return record.updatedAt < cursor.updatedAt || (record.updatedAt === cursor.updatedAt && record.id < cursor.id);
}

/** A page from `limit + 1` rows in order: the extra row only says there is a next page. */
export function pageOf(rows: SessionRecord[], limit: number): SessionPage {
  if (rows.length <= limit) return { sessions: rows };
  const sessions = rows.slice(0, limit);
  return { sessions, nextCursor: encodeSessionCursor(sessions[limit - 1]!) };
}

/** A page cut from every matching record, for stores that keep records in memory (memory, IndexedDB). */
export function pageFromAll(all: Iterable<SessionRecord>, query: { owner?: string; cursor?: string; limit: number }): SessionPage {
  const cursor = query.cursor !== undefined ? decodeSessionCursor(query.cursor) : undefined;
  const limit = checkPageLimit(query.limit);
  const rows: SessionRecord[] = [];
  for (const record of all) {
    if (query.owner !== undefined && record.owner !== query.owner) continue;
    if (cursor && !isAfterCursor(record, cursor)) continue;
    rows.push(record);
  }
  return pageOf(rows.sort(newestFirst).slice(0, limit + 1), limit);
}

/** `LOUSHO_SESSION_NOT_FOUND` for a session a store does not know. */
export function sessionNotFoundError(id: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_SESSION_NOT_FOUND, `No session '${id.slice(0, 200)}'.`, { hint: 'List the sessions to see which exist.' });
}

/**
 * Deletes a thread from a store: its record and event log, its checkpoint (transcript and run
 * state) and its approval records. `LOUSHO_SESSION_NOT_FOUND` when the store does not know it.
 */
export async function deleteSession(store: AgentStore, id: string): Promise<void> {
  if (!store.sessions || (await store.sessions.get(id)) === undefined) throw sessionNotFoundError(id);
  await store.approvals?.deleteSession?.(id);
  await store.checkpoints?.delete(id);
  await store.sessions.delete(id);
}
