import type { ClientAgent } from '@lousho/protocol';
import { AgentClientError } from '../errors.js';
import type { HttpSource } from '../types.js';
import type { SessionListSource, SessionListTransport, SessionSummary, SessionUsage } from './types.js';

/** A session as `agent.sessions.list()` gives it. */
type ListedRecord = Awaited<ReturnType<NonNullable<ClientAgent['sessions']['list']>>>['sessions'][number];

/** The wire form of a stored session (what `GET /sessions` sends for it). */
export function summaryOf(record: ListedRecord & { usage?: SessionUsage }): SessionSummary {
  return { id: record.id, title: record.title ?? null, status: record.status, createdAt: record.createdAt, updatedAt: record.updatedAt, usage: record.usage ?? null };
}

/** The thread routes of `createAgentHandler()`: `GET /sessions`, `PATCH` and `DELETE /sessions/:id`. */
export function createHttpSessionListTransport(source: Pick<HttpSource, 'url' | 'headers' | 'fetch'>): SessionListTransport {
  const base = `${source.url.replace(/\/+$/, '')}/sessions`;
  const request = async (method: string, path: string, body?: object): Promise<any> => {
    const headers = new Headers(typeof source.headers === 'function' ? await source.headers() : source.headers);
    if (body) headers.set('content-type', 'application/json');
    const response = await (source.fetch ?? fetch)(base + path, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    const json = await response.json().catch(() => undefined);
    if (response.ok) return json;
    const error = json?.error;
    const own = typeof error?.code === 'string' && typeof error.message === 'string';
    throw new AgentClientError(own ? error.code : 'LOUSHO_BAD_RESPONSE', own ? error.message : `HTTP ${response.status}`, { status: response.status });
  };
  return {
    async list({ cursor, limit }) {
      const query = new URLSearchParams({ limit: String(limit), ...(cursor !== undefined ? { cursor } : {}) });
      const page = await request('GET', `?${query}`);
      if (!Array.isArray(page?.sessions)) throw new AgentClientError('LOUSHO_BAD_RESPONSE', 'Unreadable session list.');
      return { sessions: page.sessions.map((s: SessionSummary) => ({ ...s, usage: s.usage ?? null })), ...(typeof page.nextCursor === 'string' ? { nextCursor: page.nextCursor } : {}) };
    },
    rename: async (id, title) => void (await request('PATCH', `/${encodeURIComponent(id)}`, { title })),
    remove: async (id) => void (await request('DELETE', `/${encodeURIComponent(id)}`)),
  };
}

/** The same over an agent in this process (`agent.sessions.list / rename / delete`), with the same codes. */
export function createInProcessSessionListTransport(agent: ClientAgent): SessionListTransport {
  const sessions = agent.sessions;
  const unsupported = (): never => {
    throw new AgentClientError('LOUSHO_SESSION_LIST_UNSUPPORTED', 'This agent cannot list, rename or delete its sessions.');
  };
  return {
    async list(query) {
      const page = await (sessions.list ?? unsupported).call(sessions, query);
      return { sessions: page.sessions.map(summaryOf), ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
    },
    rename: async (id, title) => (sessions.rename ?? unsupported).call(sessions, id, title),
    remove: async (id) => (sessions.delete ?? unsupported).call(sessions, id),
  };
}

/** The transport for a source: in process for `{ agent }`, else HTTP. */
export const sessionListTransportFor = (source: SessionListSource): SessionListTransport =>
  'agent' in source && source.agent ? createInProcessSessionListTransport(source.agent) : createHttpSessionListTransport(source as HttpSource);
