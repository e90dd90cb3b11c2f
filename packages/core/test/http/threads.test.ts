import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, memoryStore } from '../../src/index.js';
import { createAgentHandler, type AgentHandlerOptions, type HandlerAgent } from '../../src/http/index.js';
import { mockModel } from '@lousho/testing';
import { emailCall, emailTool, errorOf, json, readSse, serve, type TestServer } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(agent: HandlerAgent, options: AgentHandlerOptions = {}): Promise<string> {
  server = await serve(createAgentHandler(agent, { authorize: (request) => request.headers.get('x-user'), ...options }));
  return server.url;
}

const as = (user: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), 'x-user': user } });
const say = async (url: string, user: string, sessionId: string, input: string) => readSse(await fetch(`${url}/sessions/${sessionId}/messages`, as(user, json({ input }))));
const page = async (url: string, user: string, query = '') => (await fetch(`${url}/sessions${query}`, as(user))).json() as Promise<{ sessions: Record<string, unknown>[]; nextCursor?: string }>;
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

describe('createAgentHandler: the thread list', () => {
  it('lists the caller\'s sessions newest activity first, titled by their first message, paged by a cursor', async () => {
    const agent = createAgent({ provider: mockModel(['one', 'two', 'three', 'four']) });
    const url = await start(agent);
    await say(url, 'alice', 'a1', '  Plan a trip\nto Lisbon ');
    await tick();
    await say(url, 'alice', 'a2', 'Second thread');
    await tick();
    await say(url, 'bob', 'b1', 'Bob here');
    await tick();
    await say(url, 'alice', 'a1', 'And the hotel?');
    const first = await page(url, 'alice', '?limit=1');
    expect(first.sessions).toEqual([{ id: 'a1', title: 'Plan a trip to Lisbon', status: 'idle', createdAt: expect.any(Number), updatedAt: expect.any(Number), usage: expect.any(Object) }]);
    // Both runs of a1 count (the mock model prices nothing: no cost).
    const runs = (await agent.sessions.list!({ owner: 'alice' })).sessions.find((s) => s.id === 'a1')!;
    expect(first.sessions[0]!.usage).toEqual(runs.usage);
    expect(runs.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: expect.any(Number), totalTokens: expect.any(Number) });
    expect(runs.usage!.outputTokens).toBeGreaterThan(0);
    const second = await page(url, 'alice', `?limit=1&cursor=${first.nextCursor}`);
    expect(second.sessions.map((s) => [s.id, s.title])).toEqual([['a2', 'Second thread']]);
    expect(second.nextCursor).toBeUndefined();
    expect((await page(url, 'bob')).sessions.map((s) => s.id)).toEqual(['b1']);
    expect((await page(url, 'carol')).sessions).toEqual([]);
  });

  it('lists a paused session as awaiting approval', async () => {
    const { tool } = emailTool();
    const store = memoryStore();
    const agent = createAgent({ provider: mockModel([{ text: 'Sending.', toolCalls: [emailCall('amy@example.com')] }]), tools: [tool], store });
    const url = await start(agent);
    await say(url, 'alice', 'p1', 'Email Amy');
    expect((await page(url, 'alice')).sessions).toMatchObject([{ id: 'p1', status: 'awaiting-approval' }]);
    // Another process (a fresh agent over the same store) reads it from the store.
    const other = createAgent({ provider: mockModel([]), store });
    expect((await other.sessions.list!({ owner: 'alice' })).sessions).toMatchObject([{ id: 'p1', status: 'awaiting-approval' }]);
  });

  it('renames and deletes a session; another principal\'s session is a 404 like an unknown one, and stays as it was', async () => {
    const agent = createAgent({ provider: mockModel(['one', 'two']) });
    const url = await start(agent);
    await say(url, 'alice', 'a1', 'Hello');
    const renamed = await fetch(`${url}/sessions/a1`, as('alice', { ...json({ title: '  Trip  ' }), method: 'PATCH' }));
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({ sessionId: 'a1', title: 'Trip' });
    expect((await page(url, 'alice')).sessions.map((s) => s.title)).toEqual(['Trip']);

    expect(await errorOf(await fetch(`${url}/sessions/a1`, as('bob', { ...json({ title: 'Mine' }), method: 'PATCH' })))).toMatchObject({ status: 404, code: 'LOUSHO_SESSION_NOT_FOUND' });
    expect(await errorOf(await fetch(`${url}/sessions/a1`, as('bob', { method: 'DELETE' })))).toMatchObject({ status: 404, code: 'LOUSHO_SESSION_NOT_FOUND' });
    expect(await errorOf(await fetch(`${url}/sessions/nope`, as('alice', { ...json({ title: 'x' }), method: 'PATCH' })))).toMatchObject({ status: 404, code: 'LOUSHO_SESSION_NOT_FOUND' });
    expect(await errorOf(await fetch(`${url}/sessions/nope`, as('alice', { method: 'DELETE' })))).toMatchObject({ status: 404, code: 'LOUSHO_SESSION_NOT_FOUND' });
    expect((await page(url, 'alice')).sessions.map((s) => s.title)).toEqual(['Trip']);

    const deleted = await fetch(`${url}/sessions/a1`, as('alice', { method: 'DELETE' }));
    expect(await deleted.json()).toEqual({ sessionId: 'a1', deleted: true });
    expect((await page(url, 'alice')).sessions).toEqual([]);
    expect(await errorOf(await fetch(`${url}/sessions/a1`, as('alice')))).toMatchObject({ status: 404, code: 'LOUSHO_SESSION_NOT_FOUND' });
    expect(agent.sessions.get('a1')).toBeUndefined();
    // The id is free again: a new thread under it starts empty.
    const again = await say(url, 'alice', 'a1', 'Fresh start');
    expect(again.events[0]).toMatchObject({ type: 'run.start' });
    expect((await page(url, 'alice')).sessions.map((s) => s.title)).toEqual(['Fresh start']);
  });

  it('answers bad input with 400 and a stable code, changing nothing', async () => {
    const agent = createAgent({ provider: mockModel(['one']) });
    const url = await start(agent);
    await say(url, 'alice', 'a1', 'Hello');
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?limit=-1', '?limit=1.5']) {
      expect(await errorOf(await fetch(`${url}/sessions${query}`, as('alice')))).toMatchObject({ status: 400, code: 'LOUSHO_SESSION_LIMIT_INVALID' });
    }
    expect(await errorOf(await fetch(`${url}/sessions?cursor=garbage!`, as('alice')))).toMatchObject({ status: 400, code: 'LOUSHO_SESSION_CURSOR_INVALID' });
    for (const body of [{}, { title: '' }, { title: '   ' }, { title: 7 }, { title: 'x'.repeat(101) }, ['t']]) {
      expect(await errorOf(await fetch(`${url}/sessions/a1`, as('alice', { ...json(body), method: 'PATCH' })))).toMatchObject({ status: 400, code: 'LOUSHO_SESSION_TITLE_INVALID' });
    }
    expect((await page(url, 'alice')).sessions.map((s) => s.title)).toEqual(['Hello']);
  });

  it('refuses to delete a session while its turn runs (409), and in-process agents get the same methods', async () => {
    const agent = createAgent({ provider: mockModel(['slow answer'], { delayMs: 50 }) });
    const run = agent.stream('Hello', { sessionId: 's1' });
    const iterator = run[Symbol.asyncIterator]();
    await iterator.next();
    await expect(agent.sessions.delete!('s1')).rejects.toMatchObject({ code: 'LOUSHO_SESSION_BUSY' });
    for (let step = await iterator.next(); !step.done; step = await iterator.next());
    await agent.sessions.rename!('s1', 'Greeting');
    expect((await agent.sessions.list!()).sessions.map((s) => [s.id, s.title])).toEqual([['s1', 'Greeting']]);
    await agent.sessions.delete!('s1');
    expect((await agent.sessions.list!()).sessions).toEqual([]);
    await expect(agent.sessions.rename!('s1', 'x')).rejects.toMatchObject({ code: 'LOUSHO_SESSION_NOT_FOUND' });
  });

  it('answers 501 with a stable code when the store cannot list threads', async () => {
    const store = memoryStore();
    Object.assign(store.sessions, { listPage: undefined, rename: undefined });
    const agent = createAgent({ provider: mockModel(['one']), store });
    const url = await start(agent);
    await say(url, 'alice', 'a1', 'Hello');
    expect(await errorOf(await fetch(`${url}/sessions`, as('alice')))).toMatchObject({ status: 501, code: 'LOUSHO_SESSION_LIST_UNSUPPORTED' });
    expect(await errorOf(await fetch(`${url}/sessions/a1`, as('alice', { ...json({ title: 'x' }), method: 'PATCH' })))).toMatchObject({ status: 501, code: 'LOUSHO_SESSION_LIST_UNSUPPORTED' });
  });
});
