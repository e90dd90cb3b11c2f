import { describe, expect, it } from 'vitest';
import { listDemoSessions, sessionOrigin, SESSION_LIST_LIMIT } from '../src/server/session-list.js';
import { sessionItemAttributes, sessionItemLabels } from '../src/display/sessions.js';

const row = (id: string, createdAt: number, extra: Partial<{ owner: string; status: 'idle' | 'running'; pending: 'tool' | null }> = {}) => ({
  id,
  owner: extra.owner ?? 'anonymous',
  status: extra.status ?? 'idle',
  pendingApproval: extra.pending ? { kind: extra.pending } : null,
  createdAt,
  updatedAt: createdAt,
});

describe('listDemoSessions', () => {
  it('lists the anonymous principal’s sessions newest first, with where each came from', async () => {
    const rows = [row('chat-a', 1), row('webhook-1', 3, { status: 'running' }), row('cron-2', 2, { pending: 'tool' }), row('other', 4, { owner: 'alice' })];
    let asked: unknown;
    const listed = await listDemoSessions({
      list: (filter) => {
        asked = filter;
        return rows.filter((r) => r.owner === filter.owner);
      },
    });
    expect(asked).toEqual({ owner: 'anonymous' });
    expect(listed.map((s) => [s.sessionId, s.origin, s.status, s.pending])).toEqual([
      ['webhook-1', 'webhook', 'running', null],
      ['cron-2', 'cron', 'idle', 'tool'],
      ['chat-a', 'chat', 'idle', null],
    ]);
  });

  it(`keeps the newest ${SESSION_LIST_LIMIT}`, async () => {
    const rows = Array.from({ length: SESSION_LIST_LIMIT + 5 }, (_, i) => row(`s${i}`, i));
    const listed = await listDemoSessions({ list: async () => rows });
    expect(listed).toHaveLength(SESSION_LIST_LIMIT);
    expect(listed[0]!.sessionId).toBe(`s${SESSION_LIST_LIMIT + 4}`);
  });

  it('names the origin from the ids the trigger adapters make', () => {
    expect(sessionOrigin('webhook-3f1c')).toBe('webhook');
    expect(sessionOrigin('cron-3f1c')).toBe('cron');
    expect(sessionOrigin('slack:C1:1700000000.1')).toBe('slack');
    expect(sessionOrigin('k3j2h1')).toBe('chat');
  });
});

describe('a Sessions panel row', () => {
  const summary = { sessionId: 'webhook-1', origin: 'webhook', status: 'running', pending: null, createdAt: 1, updatedAt: 1 } as const;

  it('says where the session came from, and that it waits for a person over its status', () => {
    expect(sessionItemLabels(summary)).toEqual({ origin: 'Webhook', state: 'Running' });
    expect(sessionItemLabels({ ...summary, origin: 'cron', status: 'idle', pending: 'tool' })).toEqual({ origin: 'Schedule', state: 'Waiting for approval' });
  });

  it('marks only the session the chat shows as current', () => {
    expect(sessionItemAttributes(summary, 'webhook-1')).toEqual({ 'data-testid': 'session-item', 'data-session-id': 'webhook-1', 'data-origin': 'webhook', 'aria-current': 'true' });
    expect(sessionItemAttributes(summary, 'other')['aria-current']).toBeUndefined();
  });
});
