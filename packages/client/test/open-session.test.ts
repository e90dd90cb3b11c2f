import { afterEach, describe, expect, it } from 'vitest';
import { createAgentHandler, type AgentStreamEvent } from '@lousho/core';
import { agentWith, coveredSeqs, plain, reduceAll, serve, slowTool, type TestServer } from '../../core/test/http/helpers.js';
import { createAgentClient, type AgentClient, type AgentClientOptions, type AgentUIState, type ClientAgent, type SessionIdStorage } from '../src/index.js';

/** `client.open(id)`: switching threads, in both transports (a running session keeps running and is followed again). */

const servers: TestServer[] = [];
const clients: AgentClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const server of servers.splice(0)) await server.close();
});

const harnesses = [
  { name: 'in-process', source: async (agent: ClientAgent) => ({ agent }) },
  {
    name: 'http',
    source: async (agent: ClientAgent) => {
      const server = await serve(createAgentHandler(agent));
      servers.push(server);
      return { url: server.url };
    },
  },
];

function memoryStorage(): SessionIdStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

const texts = (state: AgentUIState): string[] => state.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])));

/** Resolves once the client's state satisfies `done`. */
function until(client: AgentClient, done: (state: AgentUIState) => boolean): Promise<AgentUIState> {
  return new Promise((resolve) => {
    if (done(client.getSnapshot())) return resolve(client.getSnapshot());
    const stop = client.subscribe((state) => {
      if (done(state)) {
        stop();
        resolve(state);
      }
    });
  });
}

describe.each(harnesses)('client.open() over $name', (harness) => {
  async function clientFor(agent: ClientAgent, options: AgentClientOptions = {}): Promise<AgentClient> {
    const client = createAgentClient(await harness.source(agent), { throttleMs: 0, ...options });
    clients.push(client);
    return client;
  }

  it('switches away from a running session and back: it ran on meanwhile, and is followed live with every event once', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = agentWith([{ toolCalls: [{ name: 'slow', id: 's1', args: {} }] }, 'second thread reply', 'first thread done'], { tools: [tool] });
    const events: AgentStreamEvent[] = [];
    const client = await clientFor(agent, { onEvent: (event) => events.push(event) });
    client.subscribe(() => {});

    const running = client.send('first thread');
    await started.promise;
    const first = client.sessionId!;

    // A new thread while the first one runs: the first one's action is let go, not stopped.
    client.reset();
    expect(await running).toMatchObject({ ok: false, error: { code: 'LOUSHO_CLIENT_DETACHED' } });
    expect(await client.send('second thread')).toMatchObject({ ok: true, finishReason: 'stop' });
    const second = client.sessionId!;
    expect(second).not.toBe(first);
    expect(texts(client.getSnapshot())).toEqual(['second thread', 'second thread reply']);

    // Back to the first: still running on the server.
    events.length = 0;
    await client.open(first);
    expect(client.sessionId).toBe(first);
    expect(client.getSnapshot().status).toBe('streaming');
    expect(texts(client.getSnapshot())).toEqual(['first thread']);
    const restoredAt = client.getSnapshot().lastSeq;

    release.open();
    const finished = await until(client, (state) => state.finishReason === 'stop');
    expect(texts(finished)).toEqual(['first thread', 'first thread done']);
    // What the client shows is what the session's log reduces to, and the live events came once each, in order.
    expect(plain(finished)).toEqual(plain(reduceAll((agent as ClientAgent).sessions.eventsAfter(first, 0))));
    const seqs = coveredSeqs(events);
    expect(seqs).toEqual(seqs.map((_, i) => restoredAt + 1 + i));
    expect(seqs.at(-1)).toBe(finished.lastSeq);

    // And to the second again, as it was.
    await client.open(second);
    expect(texts(client.getSnapshot())).toEqual(['second thread', 'second thread reply']);
    expect(client.getSnapshot().status).toBe('idle');
  });

  it('the session id storage follows the opened session; reset forgets it', async () => {
    const { agent } = agentWith(['one', 'two']);
    const storage = memoryStorage();
    const client = await clientFor(agent, { storage, storageKey: 'k' });
    await client.send('a');
    const a = client.sessionId!;
    client.reset();
    expect(storage.data.has('k')).toBe(false);
    await client.send('b');
    await client.open(a);
    expect(storage.data.get('k')).toBe(a);
    // A reload restores the opened session.
    const reloaded = await clientFor(agent, { storage, storageKey: 'k' });
    await reloaded.start();
    expect(reloaded.sessionId).toBe(a);
    expect(texts(reloaded.getSnapshot())).toEqual(['a', 'one']);
  });

  it('an unknown session opens empty (the first send creates it); a listener sees a new state even so', async () => {
    const { agent } = agentWith(['hello']);
    const client = await clientFor(agent);
    const seen: AgentUIState[] = [];
    client.subscribe((state) => seen.push(state));
    await client.start();
    const before = client.getSnapshot();
    await client.open('not-there-yet');
    expect(client.sessionId).toBe('not-there-yet');
    expect(client.getSnapshot()).not.toBe(before);
    expect(client.getSnapshot()).toMatchObject({ status: 'idle', messages: [] });
    expect(seen.at(-1)).toBe(client.getSnapshot());
    expect(await client.send('hi')).toMatchObject({ ok: true });
    expect(client.sessionId).toBe('not-there-yet');
    expect(texts(client.getSnapshot())).toEqual(['hi', 'hello']);
  });

  it('after destroy, open does nothing', async () => {
    const { agent } = agentWith(['x']);
    const client = await clientFor(agent);
    client.destroy();
    await client.open('s');
    expect(client.sessionId).toBeUndefined();
  });
});
