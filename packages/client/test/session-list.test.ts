import { afterEach, describe, expect, it } from 'vitest';
import { createAgentHandler } from '@lousho/core';
import { agentWith, serve, slowTool, type TestServer } from '../../core/test/http/helpers.js';
import { createAgentClient, type AgentClient, type ClientAgent } from '../src/index.js';
import { createSessionList, type SessionList, type SessionListSource, type SessionListState } from '../src/sessions/index.js';

/** `@lousho/client/sessions`: the thread list over both transports, opening threads in a real client. */

const servers: TestServer[] = [];
const clients: AgentClient[] = [];
const lists: SessionList[] = [];
afterEach(async () => {
  for (const list of lists.splice(0)) list.destroy();
  for (const client of clients.splice(0)) client.destroy();
  for (const server of servers.splice(0)) await server.close();
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

const harnesses = [
  { name: 'in-process', source: async (agent: ClientAgent): Promise<SessionListSource> => ({ agent }) },
  {
    name: 'http',
    source: async (agent: ClientAgent): Promise<SessionListSource> => {
      const server = await serve(createAgentHandler(agent));
      servers.push(server);
      return { url: server.url };
    },
  },
];

function until(list: SessionList, done: (state: SessionListState) => boolean): Promise<SessionListState> {
  return new Promise((resolve) => {
    if (done(list.getSnapshot())) return resolve(list.getSnapshot());
    const stop = list.subscribe((state) => {
      if (done(state)) {
        stop();
        resolve(state);
      }
    });
  });
}

describe.each(harnesses)('the thread list over $name', (harness) => {
  async function setUp(agent: ClientAgent, limit?: number) {
    const source = await harness.source(agent);
    const client = createAgentClient(source, { throttleMs: 0 });
    clients.push(client);
    const list = createSessionList(source, client, limit ? { limit } : {});
    lists.push(list);
    // What a binding does: tell the list where the chat is, on each change.
    client.subscribe((state) => list.sync({ sessionId: client.sessionId, status: state.status }));
    return { client, list };
  }

  it('lists threads newest activity first, titled, with usage; pages with loadMore; follows the chat as it moves on', async () => {
    const { agent } = agentWith(['one', 'two', 'three', 'four']);
    const { client, list } = await setUp(agent, 2);
    for (const text of ['First', 'Second', 'Third']) {
      client.reset();
      await client.send(text);
      await tick();
    }
    list.subscribe(() => {});
    let state = await until(list, (s) => s.status === 'ready');
    expect(state.sessions.map((s) => s.title)).toEqual(['Third', 'Second']);
    expect(state.sessions[0]).toMatchObject({ status: 'idle', usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number), totalTokens: expect.any(Number) } });
    expect(state.hasMore).toBe(true);
    expect(state.current).toBe(client.sessionId);
    expect(await list.loadMore()).toEqual({ ok: true });
    state = list.getSnapshot();
    expect(state.sessions.map((s) => s.title)).toEqual(['Third', 'Second', 'First']);
    expect(state.hasMore).toBe(false);

    // A turn in the oldest thread moves it to the top (the chat's change refreshes the list).
    await list.open(state.sessions[2]!.id);
    await client.send('Again');
    state = await until(list, (s) => s.sessions[0]?.title === 'First' && s.status === 'ready');
    // Read again from the top as far as "more" had loaded.
    expect(state.sessions.map((s) => s.title)).toEqual(['First', 'Third', 'Second']);
    expect(state.hasMore).toBe(false);
    expect(state.current).toBe(client.sessionId);
  });

  it('opens a running thread from the list and follows it live; a new thread shows once sent', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = agentWith([{ toolCalls: [{ name: 'slow', id: 's1', args: {} }] }, 'other reply', 'slow done'], { tools: [tool] });
    const { client, list } = await setUp(agent);
    list.subscribe(() => {});
    void client.send('Slow thread');
    await started.promise;
    const slow = client.sessionId!;
    let state = await until(list, (s) => s.sessions.some((t) => t.id === slow && t.status === 'running'));
    list.openNew();
    expect(list.getSnapshot().current).toBeUndefined();
    expect(client.sessionId).toBeUndefined();
    await client.send('Other thread');
    state = await until(list, (s) => s.sessions.length === 2 && s.status === 'ready');
    expect(state.sessions.map((s) => [s.title, s.status])).toEqual([
      ['Other thread', 'idle'],
      ['Slow thread', 'running'],
    ]);
    await list.open(slow);
    expect(client.getSnapshot().status).toBe('streaming');
    release.open();
    await new Promise<void>((resolve) => client.subscribe((s) => s.finishReason === 'stop' && resolve()));
    expect(client.getSnapshot().messages.at(-1)!.parts.at(-1)).toEqual({ type: 'text', text: 'slow done' });
    state = await until(list, (s) => s.sessions.find((t) => t.id === slow)?.status === 'idle');
    expect(state.sessions[0]!.id).toBe(slow);
  });

  it('renames and deletes; deleting the open thread starts a new one; bad inputs have codes and change nothing', async () => {
    const { agent } = agentWith(['one', 'two']);
    const { client, list } = await setUp(agent);
    await client.send('Keep me');
    const keep = client.sessionId!;
    await tick();
    client.reset();
    await client.send('Delete me');
    const gone = client.sessionId!;
    list.subscribe(() => {});
    await until(list, (s) => s.status === 'ready');

    expect(await list.rename(keep, '  Trip to Lisbon ')).toEqual({ ok: true });
    expect(list.getSnapshot().sessions.find((s) => s.id === keep)!.title).toBe('Trip to Lisbon');
    expect(await list.rename(keep, '   ')).toMatchObject({ ok: false, error: { code: 'LOUSHO_SESSION_TITLE_INVALID' } });
    expect(list.getSnapshot().error).toMatchObject({ code: 'LOUSHO_SESSION_TITLE_INVALID' });
    expect(await list.rename('no-such-thread', 'x')).toMatchObject({ ok: false, error: { code: 'LOUSHO_SESSION_NOT_FOUND' } });
    expect(await list.remove('no-such-thread')).toMatchObject({ ok: false, error: { code: 'LOUSHO_SESSION_NOT_FOUND' } });
    await list.refresh();
    expect(list.getSnapshot().sessions.map((s) => [s.id, s.title])).toEqual([
      [gone, 'Delete me'],
      [keep, 'Trip to Lisbon'],
    ]);
    expect(list.getSnapshot().error).toBeNull();

    expect(client.sessionId).toBe(gone);
    expect(await list.remove(gone)).toEqual({ ok: true });
    expect(client.sessionId).toBeUndefined();
    expect(client.getSnapshot().messages).toEqual([]);
    expect(list.getSnapshot()).toMatchObject({ current: undefined, sessions: [{ id: keep }] });
    await list.refresh();
    expect(list.getSnapshot().sessions.map((s) => s.id)).toEqual([keep]);
  });
});

describe('the thread list over HTTP, with principals', () => {
  it("another principal's thread is LOUSHO_SESSION_NOT_FOUND for rename, delete and open, and stays as it was", async () => {
    const { agent } = agentWith(['one', 'two']);
    const server = await serve(createAgentHandler(agent, { authorize: (request) => request.headers.get('x-user') }));
    servers.push(server);
    const as = (user: string) => ({ url: server.url, headers: { 'x-user': user } });
    const alice = createAgentClient(as('alice'), { throttleMs: 0 });
    const bob = createAgentClient(as('bob'), { throttleMs: 0 });
    clients.push(alice, bob);
    await alice.send('Alice private');
    const aliceThread = alice.sessionId!;
    const bobList = createSessionList(as('bob'), bob);
    lists.push(bobList);
    expect(await bobList.refresh()).toEqual({ ok: true });
    expect(bobList.getSnapshot().sessions).toEqual([]);
    expect(await bobList.rename(aliceThread, 'mine now')).toMatchObject({ ok: false, error: { code: 'LOUSHO_SESSION_NOT_FOUND' } });
    expect(await bobList.remove(aliceThread)).toMatchObject({ ok: false, error: { code: 'LOUSHO_SESSION_NOT_FOUND' } });
    await bobList.open(aliceThread);
    expect(bob.getSnapshot().messages).toEqual([]);
    // Sending there is refused like an unknown session's: nothing of Alice's thread changes.
    expect(await bob.send('let me in')).toMatchObject({ ok: false, error: { code: 'LOUSHO_SESSION_NOT_FOUND' } });
    expect(agent.sessions.get(aliceThread)!.messages.map((m) => m.content)).toEqual(['Alice private', 'one']);
    const aliceList = createSessionList(as('alice'), alice);
    lists.push(aliceList);
    await aliceList.refresh();
    expect(aliceList.getSnapshot().sessions).toMatchObject([{ id: aliceThread, title: 'Alice private' }]);
  });

  it('a bad cursor from the server side and an unreachable server are errors with codes in the state', async () => {
    const { agent } = agentWith([]);
    const list = createSessionList({ url: 'http://127.0.0.1:9', fetch: () => Promise.reject(new TypeError('fetch failed')) }, createAgentClient({ agent }));
    lists.push(list);
    expect(await list.refresh()).toMatchObject({ ok: false, error: { code: 'LOUSHO_NETWORK_ERROR' } });
    expect(list.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'LOUSHO_NETWORK_ERROR' }, sessions: [] });
  });
});
