import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { AgentSessions } from '@lousho/protocol';
import type { SessionRecord, SessionUsage } from '@lousho/protocol';
import type { ClientAgent } from '@lousho/protocol';
import { HttpError } from './errors.js';

/** The thread-list methods of an agent's sessions; `LOUSHO_SESSION_LIST_UNSUPPORTED` (501) for an agent without them. */
export function threadsOf(agent: ClientAgent): Required<Pick<AgentSessions, 'list' | 'rename' | 'delete'>> {
  const { list, rename, delete: remove } = agent.sessions;
  if (!list || !rename || !remove) {
    throw new SDKError(ERROR_CODES.LOUSHO_SESSION_LIST_UNSUPPORTED, 'This agent cannot list, rename or delete its sessions.', {
      hint: 'Serve an agent made by createAgent() with a store that lists threads.',
    });
  }
  return { list: list.bind(agent.sessions), rename: rename.bind(agent.sessions), delete: remove.bind(agent.sessions) };
}

/** `?cursor=&limit=` of `GET /sessions`: the limit a whole number (checked again, 1 to 100, by the agent). */
export function parsePageQuery(url: URL): { cursor?: string; limit?: number } {
  const cursor = url.searchParams.get('cursor');
  const limit = url.searchParams.get('limit');
  const out: { cursor?: string; limit?: number } = {};
  if (cursor !== null && cursor !== '') out.cursor = cursor;
  if (limit !== null) {
    if (!/^\d{1,4}$/.test(limit)) throw new HttpError(400, ERROR_CODES.LOUSHO_SESSION_LIMIT_INVALID, 'limit must be a whole number from 1 to 100.');
    out.limit = Number(limit);
  }
  return out;
}

/** `{ title }` of `PATCH /sessions/:id`; the title itself is checked by `rename`. */
export function parseRenameBody(body: unknown): string {
  const title = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { title?: unknown }).title : undefined;
  if (typeof title !== 'string') throw new HttpError(400, ERROR_CODES.LOUSHO_SESSION_TITLE_INVALID, 'The body must be { "title": "..." } with a string title.');
  return title;
}

/** One session of a `GET /sessions` page, as the wire has it. */
export function sessionListItem(record: SessionRecord): { id: string; title: string | null; status: SessionRecord['status']; createdAt: number; updatedAt: number; usage: SessionUsage | null } {
  return { id: record.id, title: record.title ?? null, status: record.status, createdAt: record.createdAt, updatedAt: record.updatedAt, usage: record.usage ?? null };
}
