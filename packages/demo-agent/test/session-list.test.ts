import { describe, expect, it } from 'vitest';
import { listDemoSessions, sessionOrigin, SESSION_LIST_LIMIT, SESSION_TITLE_CHARS } from '../src/server/session-list.js';
import { openedSessionOf, sessionItemAttributes, sessionItemLabels, shortSessionId, urlForSession } from '../src/display/sessions.js';

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

describe('listDemoSessions: titles', () => {
  const userMessage = (text: string) => ({ type: 'user.message', seq: 1, runId: 'r', message: { role: 'user', content: text } }) as never;

  it('titles a row by its first user message, on one line and cut; a session without one by what started it', async () => {
    const long = `Please ${'research '.repeat(20)}now`;
    const logs: Record<string, unknown[]> = {
      'chat-a': [{ type: 'run.start', seq: 0, runId: 'r', model: 'm' }, userMessage("What's the\nweather in Paris?"), userMessage('and Rome?')],
      'webhook-1': [userMessage('email bob@example.com about the launch')],
      'webhook-2': [],
      'chat-b': [userMessage(long)],
    };
    const store = { list: () => Object.keys(logs).map((id, i) => row(id, i)), eventsAfter: (id: string) => logs[id] as never[] };
    const titles = Object.fromEntries((await listDemoSessions(store)).map((s) => [s.sessionId, s.title]));
    expect(titles['chat-a']).toBe("What's the weather in Paris?");
    expect(titles['webhook-1']).toBe('email bob@example.com about the launch');
    expect(titles['webhook-2']).toBe('Webhook run');
    expect(titles['chat-b']!.length).toBeLessThanOrEqual(SESSION_TITLE_CHARS);
    expect(titles['chat-b']!.startsWith('Please research research')).toBe(true);
    expect(titles['chat-b']!.endsWith('…')).toBe(true);
  });

  it('reads a session’s log until it has a title, then no more', async () => {
    const reads: string[] = [];
    const logs: Record<string, unknown[]> = { 'webhook-1': [] };
    const store = {
      list: () => [row('webhook-1', 1)],
      eventsAfter: (id: string) => {
        reads.push(id);
        return logs[id] as never[];
      },
    };
    expect((await listDemoSessions(store))[0]!.title).toBe('Webhook run');
    logs['webhook-1'] = [userMessage('research solar power')];
    expect((await listDemoSessions(store))[0]!.title).toBe('research solar power');
    expect((await listDemoSessions(store))[0]!.title).toBe('research solar power');
    expect(reads).toHaveLength(2);
  });
});

describe('a Sessions panel row', () => {
  const summary = { sessionId: 'webhook-1', origin: 'webhook', title: 'research solar power', status: 'running', pending: null, createdAt: 1, updatedAt: 1 } as const;

  it('says where the session came from, its title, and that it waits for a person over its status', () => {
    expect(sessionItemLabels(summary)).toEqual({ origin: 'Webhook', title: 'research solar power', state: 'Running' });
    expect(sessionItemLabels({ ...summary, origin: 'cron', status: 'idle', pending: 'tool' })).toEqual({ origin: 'Schedule', title: 'research solar power', state: 'Waiting for approval' });
    // Never the raw id, even from a server that sends no title.
    expect(sessionItemLabels({ ...summary, title: '' }).title).toBe('Webhook run');
  });

  it('shortens ids past a trigger prefix (the status bar read "session webhook-" for every webhook run)', () => {
    expect(shortSessionId('webhook-3f1c2a9b-77aa-4c1e-9d1e-0b1c2d3e4f50')).toBe('3f1c2a9b');
    expect(shortSessionId('cron-0a1b2c3d-1111')).toBe('0a1b2c3d');
    expect(shortSessionId('slack:C1:1700000000.1')).toBe('17000000');
    expect(shortSessionId('k3j2h1abcdef')).toBe('k3j2h1ab');
  });

  it('keeps the opened session in the URL (`?session=`), the rest of the URL as it was', () => {
    const here = new URL('http://localhost:3000/?mode=page&view=chat');
    const opened = urlForSession('webhook-1', here);
    expect(opened.href).toBe('http://localhost:3000/?mode=page&view=chat&session=webhook-1');
    expect(openedSessionOf(opened)).toBe('webhook-1');
    expect(openedSessionOf(urlForSession(undefined, opened))).toBeUndefined();
    expect(urlForSession(undefined, opened).href).toBe(here.href);
  });

  it('marks only the session the chat shows as current', () => {
    expect(sessionItemAttributes(summary, 'webhook-1')).toEqual({ 'data-testid': 'session-item', 'data-session-id': 'webhook-1', 'data-origin': 'webhook', 'aria-current': 'true' });
    expect(sessionItemAttributes(summary, 'other')['aria-current']).toBeUndefined();
  });
});
