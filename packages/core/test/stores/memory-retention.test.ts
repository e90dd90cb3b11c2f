import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgent } from '../../src/index.js';
import { createAgentHandler } from '../../src/http/index.js';
import { DEFAULT_MAX_SESSIONS, memoryStore } from '../../src/stores/memory-store.js';
import { mockModel } from '@lousho/testing';
import { emailCall, emailTool, slowTool } from '../http/helpers.js';

afterEach(() => {
  vi.useRealTimers();
});

function agentOn(store = memoryStore({ maxSessions: 3 }), tools: any[] = []) {
  const agent = createAgent({ provider: mockModel(['ok'], { whenExhausted: 'repeat-last' }), store, tools });
  return { agent, store };
}

const ids = (agent: ReturnType<typeof agentOn>['agent'], all: string[]) => all.filter((id) => agent.sessions.get(id) !== undefined);

describe('memoryStore(): a bounded number of sessions', () => {
  it('keeps the maxSessions most recently used; the agent forgets the others too', async () => {
    const { agent, store } = agentOn();
    const all = ['s1', 's2', 's3', 's4', 's5'];
    for (const id of all) await agent.send('hi', { sessionId: id });
    expect(ids(agent, all)).toEqual(['s3', 's4', 's5']);
    expect(store.sessions.list().map((r) => r.id)).toEqual(['s3', 's4', 's5']);
    for (const id of ['s1', 's2']) {
      expect(store.sessions.has(id)).toBe(false);
      expect(store.checkpoints.has(id)).toBe(false);
      expect(await agent.sessions.load(id)).toBeUndefined();
    }
    // Using s3 makes it the most recent: the next new session pushes s4 out instead.
    await agent.sessions.load('s3');
    await agent.send('hi', { sessionId: 's6' });
    expect(ids(agent, [...all, 's6'])).toEqual(['s3', 's5', 's6']);
    // A forgotten session starts over when used again.
    const again = await agent.send('hi again', { sessionId: 's1' });
    expect(again.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('never forgets a session with a run going on, or one paused for an approval (and forgets its approvals with it later)', async () => {
    const { tool: slow, started, release } = slowTool();
    const { tool: email } = emailTool();
    const store = memoryStore({ maxSessions: 1 });
    const agent = createAgent({
      // Each reply follows from the last message, whichever session asks.
      provider: mockModel(
        [
          ({ messages }) => {
            const last = messages.at(-1)!;
            if (last.role === 'tool') return last.toolCallId === 'c1' ? 'slow done' : 'sent';
            if (last.content === 'slow work') return { toolCalls: [{ name: 'slow', id: 'c1' }] };
            if (last.content === 'mail eve') return { toolCalls: [emailCall('eve@example.com')] };
            return 'ok';
          },
        ],
        { whenExhausted: 'repeat-last' },
      ),
      store,
      tools: [slow, email],
    });
    const running = agent.send('slow work', { sessionId: 'running' });
    await started.promise;
    const paused = await agent.send('mail eve', { sessionId: 'paused' });
    expect(paused.finishReason).toBe('awaiting-approval');
    for (let i = 0; i < 5; i++) await agent.send('hi', { sessionId: `other${i}` });
    // Over the bound, and still there: one runs, one waits for a person.
    expect(agent.sessions.get('running')?.status).toBe('running');
    expect(agent.sessions.get('paused')?.status).toBe('awaiting-approval');
    expect(ids(agent, ['other0', 'other1', 'other2', 'other3'])).toEqual([]);
    release.open();
    expect((await running).text).toBe('slow done');
    const approval = (await agent.approvals.list({ sessionId: 'paused' }))[0]!;
    expect((await agent.approvals.resolve({ id: approval.approvalId, approved: true })).text).toBe('sent');
    // Both are finished now: the next new sessions push them out, approvals included.
    await agent.send('hi', { sessionId: 'new1' });
    await agent.send('hi', { sessionId: 'new2' });
    expect(ids(agent, ['running', 'paused', 'new1', 'new2'])).toEqual(['new2']);
    expect(store.approvals.list({ sessionId: 'paused' })).toEqual([]);
  });

  it('with idleTtlMs, forgets a finished session unused for that long, whenever the store is next used', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const { agent } = agentOn(memoryStore({ idleTtlMs: 60_000 }));
    await agent.send('hi', { sessionId: 'old' });
    await agent.send('hi', { sessionId: 'kept' });
    vi.setSystemTime(new Date('2030-01-01T00:00:50Z'));
    await agent.sessions.load('kept');
    vi.setSystemTime(new Date('2030-01-01T00:01:30Z'));
    // 90 s after its last use 'old' is gone; 'kept' was used 40 s ago.
    expect(await agent.sessions.load('old')).toBeUndefined();
    expect(agent.sessions.get('old')).toBeUndefined();
    expect((await agent.sessions.load('kept'))?.messages).toHaveLength(2);
  });

  it(`keeps ${DEFAULT_MAX_SESSIONS} sessions by default, in createAgent()'s own store too`, async () => {
    const store = memoryStore();
    for (let i = 0; i <= DEFAULT_MAX_SESSIONS; i++) store.sessions.create(`s${i}`);
    expect(store.sessions.list()).toHaveLength(DEFAULT_MAX_SESSIONS);
    expect(store.sessions.has('s0')).toBe(false);

    const agent = createAgent({ provider: mockModel(['ok'], { whenExhausted: 'repeat-last' }) });
    for (let i = 0; i <= DEFAULT_MAX_SESSIONS; i++) await agent.send('hi', { sessionId: `a${i}` });
    expect(agent.sessions.get('a0')).toBeUndefined();
    expect(agent.sessions.get('a1')?.messages).toHaveLength(2);
    expect(agent.sessions.get(`a${DEFAULT_MAX_SESSIONS}`)?.messages).toHaveLength(2);
  }, 60_000);

  it('over HTTP, a forgotten session is unknown (404), and its id can start a new one', async () => {
    const { agent } = agentOn(memoryStore({ maxSessions: 2 }));
    const handler = createAgentHandler(agent);
    const call = (path: string, init?: RequestInit) => handler(new Request(`http://agent.test${path}`, init));
    const send = (id: string) => call(`/sessions/${id}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"hi"}' }).then((r) => r.text());
    for (const id of ['a', 'b', 'c']) await send(id);
    expect((await call('/sessions/a')).status).toBe(404);
    expect((await call('/sessions/c')).status).toBe(200);
    await send('a');
    expect(((await (await call('/sessions/a')).json()) as { messages: unknown[] }).messages).toHaveLength(2);
  });

  it('refuses a bound that is not a positive number (LOUSHO_INVALID_CONFIG); Infinity keeps everything', () => {
    for (const maxSessions of [0, -1, 1.5, Number.NaN]) expect(() => memoryStore({ maxSessions })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    for (const idleTtlMs of [0, -5, Number.NaN]) expect(() => memoryStore({ idleTtlMs })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    const store = memoryStore({ maxSessions: Infinity });
    for (let i = 0; i < DEFAULT_MAX_SESSIONS + 5; i++) store.sessions.create(`s${i}`);
    expect(store.sessions.list()).toHaveLength(DEFAULT_MAX_SESSIONS + 5);
  });
});
