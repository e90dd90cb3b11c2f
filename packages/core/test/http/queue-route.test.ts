import { afterEach, describe, expect, it } from 'vitest';
import { createAgentHandler, type AgentHandlerOptions, type HandlerAgent } from '../../src/http/index.js';
import { agentWith, errorOf, json, readSse, serve, slowTool, type TestServer } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(agent: HandlerAgent, options: AgentHandlerOptions = {}): Promise<string> {
  server = await serve(createAgentHandler(agent, options));
  return server.url;
}

const as = (user: string) => ({ 'x-user': user });
const queued = async (url: string, id: string, user: string) => ((await (await fetch(`${url}/sessions/${id}`, { headers: as(user) })).json()) as { state: { queued?: { id: string; mode: string }[] } }).state.queued ?? [];

describe('POST /sessions/:id/queue', () => {
  it('queues and removes messages while a turn runs; the queued one runs as the next turn; bad input and other principals change nothing', async () => {
    const { tool, started, release } = slowTool();
    const { agent, provider } = agentWith([{ toolCalls: [{ name: 'slow', args: {} }] }, 'First.', 'Second.'], { tools: [tool] });
    const url = await start(agent, { authorize: (request) => request.headers.get('x-user') });
    const turn = fetch(`${url}/sessions/s1/messages`, json({ input: 'go' }, as('alice')));
    await started.promise;

    const added = await fetch(`${url}/sessions/s1/queue`, json({ input: 'next' }, as('alice')));
    expect(added.status).toBe(201);
    const { queueId, mode } = (await added.json()) as { queueId: string; mode: string };
    expect(mode).toBe('queue');
    const other = (await (await fetch(`${url}/sessions/s1/queue`, json({ input: 'drop me', mode: 'steer' }, as('alice')))).json()) as { queueId: string };
    expect((await queued(url, 's1', 'alice')).map((q) => [q.id, q.mode])).toEqual([
      [queueId, 'queue'],
      [other.queueId, 'steer'],
    ]);
    const lastSeq = agent.sessions.get('s1')!.lastSeq;

    // Refused, and nothing changes: another principal, a bad body, an unknown mode, an unknown id, `turn` while one runs.
    expect(await errorOf(await fetch(`${url}/sessions/s1/queue`, json({ input: 'sneaky' }, as('mallory'))))).toMatchObject({ status: 404, code: 'LOUSHO_SESSION_NOT_FOUND' });
    expect(await errorOf(await fetch(`${url}/sessions/s1/queue`, json({ remove: queueId }, as('mallory'))))).toMatchObject({ status: 404, code: 'LOUSHO_SESSION_NOT_FOUND' });
    expect(await errorOf(await fetch(`${url}/sessions/s1/queue`, json({ input: '' }, as('alice'))))).toMatchObject({ status: 400, code: 'LOUSHO_INVALID_INPUT' });
    expect(await errorOf(await fetch(`${url}/sessions/s1/queue`, json({ input: 'x', mode: 'later' }, as('alice'))))).toMatchObject({ status: 400, code: 'LOUSHO_INVALID_INPUT' });
    expect(await errorOf(await fetch(`${url}/sessions/s1/queue`, json({ remove: 42 }, as('alice'))))).toMatchObject({ status: 400, code: 'LOUSHO_INVALID_INPUT' });
    expect(await errorOf(await fetch(`${url}/sessions/s1/queue`, json({ remove: 'q_unknown' }, as('alice'))))).toMatchObject({ status: 404, code: 'LOUSHO_QUEUED_MESSAGE_NOT_FOUND' });
    expect(await errorOf(await fetch(`${url}/sessions/s1/queue`, json({ input: 'now', mode: 'turn' }, as('alice'))))).toMatchObject({ status: 409, code: 'LOUSHO_SESSION_BUSY' });
    expect(await errorOf(await fetch(`${url}/sessions/nope/queue`, json({ input: 'x' }, as('alice'))))).toMatchObject({ status: 404, code: 'LOUSHO_SESSION_NOT_FOUND' });
    expect((await fetch(`${url}/sessions/s1/queue`, { headers: as('alice') })).status).toBe(405);
    // Sending a turn is still refused while one runs, as documented.
    expect(await errorOf(await fetch(`${url}/sessions/s1/messages`, json({ input: 'x' }, as('alice'))))).toMatchObject({ status: 409, code: 'LOUSHO_SESSION_BUSY' });
    expect(agent.sessions.get('s1')!.lastSeq).toBe(lastSeq);

    const removed = await fetch(`${url}/sessions/s1/queue`, json({ remove: other.queueId }, as('alice')));
    expect(await removed.json()).toEqual({ queueId: other.queueId, removed: true });
    expect((await queued(url, 's1', 'alice')).map((q) => q.id)).toEqual([queueId]);

    release.open();
    await readSse(await turn);
    for (let i = 0; i < 200 && !(provider.calls.length === 3 && agent.sessions.get('s1')?.status === 'idle'); i++) await new Promise((r) => setTimeout(r, 5));
    expect(provider.calls[2]!.messages.at(-1)).toEqual({ role: 'user', content: 'next' });
    expect(await queued(url, 's1', 'alice')).toEqual([]);
    const { events } = await readSse(await fetch(`${url}/sessions/s1/events`, { headers: as('alice') }));
    expect(events.filter((e) => e.type === 'message.unqueued').map((e) => (e as { reason: string }).reason)).toEqual(['removed', 'sent']);
  });
});
