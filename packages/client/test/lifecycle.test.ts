import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgent, createAgentHandler, memoryStore } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
// The HTTP handler's test helpers (a served agent, scripted tools): one copy, in core's tests.
import { agentWith, emailCall, emailTool, plain, reduceAll, serve, slowTool, type TestServer } from '../../core/test/http/helpers.js';
import { createAgentClient, type AgentClient, type ClientAgent, type SessionIdStorage } from '../src/index.js';

// The scripted reply below takes about 700 ms; a loaded machine may take several times that.
const REPLY_ENDS_WITHIN_MS = 10_000;

const servers: TestServer[] = [];
const clients: AgentClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const server of servers.splice(0)) await server.close();
});

async function handlerUrl(agent: ClientAgent, options: Parameters<typeof createAgentHandler>[1] = {}): Promise<string> {
  const server = await serve(createAgentHandler(agent, options));
  servers.push(server);
  return server.url;
}

/** A fetch that records each request as `METHOD /path` and can rewrite responses. */
function recordingFetch(rewrite?: (request: Request, response: Response) => Response) {
  const requests: string[] = [];
  const headers: Headers[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    requests.push(`${request.method} ${new URL(request.url).pathname}`);
    headers.push(request.headers);
    const response = await fetch(request);
    return rewrite ? rewrite(request, response) : response;
  };
  return { fetch: fetchImpl, requests, headers };
}

function memoryStorage(): SessionIdStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

const track = (client: AgentClient): AgentClient => {
  clients.push(client);
  return client;
};

const macrotask = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('client lifecycle', () => {
  it('does no I/O when created (safe during server rendering)', async () => {
    const { agent } = agentWith(['x']);
    const url = await handlerUrl(agent);
    const recorder = recordingFetch();
    const client = track(createAgentClient({ url, sessionId: 'restored', fetch: recorder.fetch }));
    expect(client.getSnapshot()).toMatchObject({ status: 'idle', messages: [] });
    expect(client.sessionId).toBe('restored');
    await macrotask();
    expect(recorder.requests).toEqual([]);
  });

  it('StrictMode-like subscribe → unsubscribe → subscribe sends one request; one send starts one run', async () => {
    const { agent, provider } = agentWith(['first', 'second']);
    const url = await handlerUrl(agent);
    await track(createAgentClient({ url, sessionId: 'chat' })).send('hello');

    const recorder = recordingFetch();
    const client = track(createAgentClient({ url, sessionId: 'chat', fetch: recorder.fetch }));
    const listener = vi.fn();
    client.subscribe(listener)();
    const unsubscribe = client.subscribe(listener);
    await client.start();
    await macrotask();
    expect(recorder.requests).toEqual(['GET /sessions/chat']);
    expect(client.getSnapshot().messages).toHaveLength(2);

    await client.send('again');
    expect(recorder.requests).toEqual(['GET /sessions/chat', 'POST /sessions/chat/messages']);
    expect(provider.calls).toHaveLength(2);
    unsubscribe();
  });

  it('a double mount while following a running turn keeps the one stream it has', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = agentWith([{ toolCalls: [{ name: 'slow', id: 's1' }] }, 'done'], { tools: [tool] });
    const url = await handlerUrl(agent);
    const starter = track(createAgentClient({ url, sessionId: 'busy' }));
    void starter.send('go');
    await started.promise;
    starter.destroy();

    const recorder = recordingFetch();
    const client = track(createAgentClient({ url, sessionId: 'busy', fetch: recorder.fetch }));
    const first = client.subscribe(() => {});
    await vi.waitFor(() => expect(recorder.requests).toEqual(['GET /sessions/busy', 'GET /sessions/busy/events']));
    first();
    client.subscribe(() => {});
    await macrotask();
    release.open();
    await vi.waitFor(() => expect(client.getSnapshot()).toMatchObject({ status: 'idle', finishReason: 'stop' }));
    expect(recorder.requests).toEqual(['GET /sessions/busy', 'GET /sessions/busy/events']);
  });

  it('in process too: a double mount reads the session once', async () => {
    const { agent } = agentWith(['first']);
    await agent.session('chat').send('hello');
    const get = vi.spyOn(agent.sessions, 'get');
    const client = track(createAgentClient({ agent, sessionId: 'chat' }));
    client.subscribe(() => {})();
    client.subscribe(() => {});
    await client.start();
    await macrotask();
    expect(get).toHaveBeenCalledTimes(1);
    expect(client.getSnapshot().messages).toHaveLength(2);
  });

  it('in process, restores a session from the agent\'s store that this agent object has not seen (a restart)', async () => {
    const store = memoryStore();
    const { tool } = emailTool();
    const first = createAgent({ provider: mockModel([{ toolCalls: [emailCall('bob@example.com')] }, 'Sent.']), tools: [tool], store });
    const before = track(createAgentClient({ agent: first, sessionId: 'trip' }));
    expect(await before.send('Email Bob')).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });

    // A new agent on the same store, as after a server restart: the session is only in the store.
    const second = createAgent({ provider: mockModel(['Sent.']), tools: [tool], store });
    expect(second.sessions.get('trip')).toBeUndefined();
    const after = track(createAgentClient({ agent: second, sessionId: 'trip' }));
    after.subscribe(() => {});
    await after.start();
    expect(plain(after.getSnapshot().messages)).toEqual(plain(before.getSnapshot().messages));
    expect(after.getSnapshot().pendingApproval).toEqual(before.getSnapshot().pendingApproval);
    expect(await after.approve()).toMatchObject({ ok: true, finishReason: 'stop' });
  });

  it('remembers the session id in storage and restores it after a reload; forgets it on reset', async () => {
    const { tool } = emailTool();
    const { agent } = agentWith([{ toolCalls: [emailCall('bob@example.com')] }, 'done'], { tools: [tool] });
    const url = await handlerUrl(agent);
    const storage = memoryStorage();
    const before = track(createAgentClient({ url }, { storage }));
    await before.send('Email Bob');
    expect(storage.data.get(`lousho:session:${url}`)).toBe(before.sessionId);

    const after = track(createAgentClient({ url }, { storage }));
    expect(after.sessionId).toBe(before.sessionId);
    after.subscribe(() => {});
    await after.start();
    expect(after.getSnapshot().pendingApproval).toEqual(before.getSnapshot().pendingApproval);
    after.reset();
    expect(storage.data.size).toBe(0);
  });

  it('a session the server does not know (e.g. restarted) restores to an empty state without an error', async () => {
    const { agent } = agentWith(['hi']);
    const url = await handlerUrl(agent);
    const onError = vi.fn();
    const client = track(createAgentClient({ url, sessionId: 'gone' }, { onError }));
    await client.start();
    expect(client.getSnapshot()).toMatchObject({ status: 'idle', error: null, messages: [] });
    expect(onError).not.toHaveBeenCalled();
    expect(await client.send('hello')).toMatchObject({ ok: true, finishReason: 'stop' });
  });

  it('sends the headers (a function is called per request) and reports an HTTP error JSON in state.error', async () => {
    const { agent } = agentWith(['hi']);
    const url = await handlerUrl(agent, { authorize: (request) => (request.headers.get('authorization') === 'Bearer good' ? 'ann' : null) });
    let token = 'bad';
    const onError = vi.fn();
    const client = track(createAgentClient({ url, headers: () => ({ authorization: `Bearer ${token}` }) }, { onError }));
    const refused = await client.send('hi');
    expect(refused).toMatchObject({ ok: false, error: { code: 'LOUSHO_UNAUTHORIZED' } });
    expect(client.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'LOUSHO_UNAUTHORIZED' } });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'LOUSHO_UNAUTHORIZED', status: 401 }));
    token = 'good';
    expect(await client.send('hi')).toMatchObject({ ok: true });
    expect(client.getSnapshot()).toMatchObject({ status: 'idle', error: null });
  });

  it('a network failure sets state.error (LOUSHO_NETWORK_ERROR) and never rejects', async () => {
    const { agent } = agentWith(['x']);
    const url = await handlerUrl(agent);
    await servers.pop()!.close(); // nothing listens there any more
    const onError = vi.fn();
    const client = track(createAgentClient({ url, sessionId: 'x' }, { onError }));
    await client.start();
    expect(client.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'LOUSHO_NETWORK_ERROR' } });
    expect(await client.send('hi')).toMatchObject({ ok: false, error: { code: 'LOUSHO_NETWORK_ERROR' } });
    expect(await client.stop()).toMatchObject({ ok: false, error: { code: 'LOUSHO_NETWORK_ERROR' } });
    expect(onError).toHaveBeenCalledTimes(3);
  });

  it('resumes with Last-Event-ID when the stream breaks mid-run, ending in the same state as the log', async () => {
    const longReply = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    const { agent } = agentWith([longReply], { model: { delayMs: 1 } });
    const url = await handlerUrl(agent);
    let cut = false;
    const recorder = recordingFetch((request, response) => {
      if (cut || !request.url.endsWith('/messages')) return response;
      cut = true;
      // Pass the first frames through, cut the next one in half, then fail like a dropped connection.
      const reader = response.body!.getReader();
      const encoder = new TextEncoder();
      let text = '';
      let cutAt = -1;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          const before = text.length;
          text += new TextDecoder().decode(value);
          const frames = text.split('\n\n');
          if (cutAt < 0 && frames.length > 6) cutAt = frames.slice(0, 5).join('\n\n').length + 2 + Math.floor(frames[5]!.length / 2);
          if (cutAt < 0) return controller.enqueue(value);
          controller.enqueue(encoder.encode(text.slice(before, Math.max(before, cutAt))));
          void reader.cancel();
          controller.error(new TypeError('terminated'));
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    });
    const client = track(createAgentClient({ url, fetch: recorder.fetch }));
    expect(await client.send('talk')).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(recorder.requests.filter((r) => r.endsWith('/events')).length).toBeGreaterThanOrEqual(1);
    const resumeHeader = recorder.headers[recorder.requests.findIndex((r) => r.endsWith('/events'))]!.get('last-event-id');
    expect(Number(resumeHeader)).toBeGreaterThan(0);
    expect(plain(client.getSnapshot())).toEqual(plain(reduceAll(agent.sessions.eventsAfter(client.sessionId!, 0))));
  });

  it('re-attaching after the reply ended resumes from merged replayed deltas without re-reading the session', async () => {
    const text = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    // About 35 deltas 20 ms apart: the detach below lands mid-reply even on a loaded machine (at
    // 5 ms apart, the reply once ended before the detach at load 50).
    const { agent } = agentWith([{ text, chunkSize: 3, delayMs: 20 }]);
    const url = await handlerUrl(agent);
    const recorder = recordingFetch();
    const client = track(createAgentClient({ url, fetch: recorder.fetch }, { throttleMs: 0 }));
    const unsubscribe = client.subscribe(() => {});
    const pending = client.send('talk');
    await vi.waitFor(() => expect(client.getSnapshot().status).toBe('streaming'));
    unsubscribe();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'LOUSHO_CLIENT_DETACHED' } });
    const seenAtDetach = client.getSnapshot().lastSeq;
    await vi.waitFor(() => expect(agent.sessions.get(client.sessionId!)!.status).toBe('idle'), { timeout: REPLY_ENDS_WITHIN_MS });
    // The finished leg's log is compacted: the deltas after the detach point come back as one merged event.
    const replay = agent.sessions.eventsAfter(client.sessionId!, seenAtDetach);
    expect(replay[0]).toMatchObject({ type: 'text.delta', fromSeq: seenAtDetach + 1 });
    expect(replay[0]!.seq).toBeGreaterThan(seenAtDetach + 1);

    client.subscribe(() => {});
    await vi.waitFor(() => expect(client.getSnapshot()).toMatchObject({ status: 'idle', finishReason: 'stop' }), { timeout: REPLY_ENDS_WITHIN_MS });
    expect(plain(client.getSnapshot())).toEqual(plain(reduceAll(agent.sessions.eventsAfter(client.sessionId!, 0))));
    // Followed from where it left off: no `GET /sessions/<id>` (what a gap would cost).
    expect(recorder.requests).toEqual([`POST /sessions/${client.sessionId}/messages`, `GET /sessions/${client.sessionId}/events`]);
  });

  it('in process too: re-attaching after the reply ended does not re-read the session', async () => {
    const text = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    // About 35 deltas 20 ms apart: the detach below lands mid-reply even on a loaded machine (at
    // 5 ms apart, the reply once ended before the detach at load 50).
    const { agent } = agentWith([{ text, chunkSize: 3, delayMs: 20 }]);
    const client = track(createAgentClient({ agent }, { throttleMs: 0 }));
    const unsubscribe = client.subscribe(() => {});
    const pending = client.send('talk');
    await vi.waitFor(() => expect(client.getSnapshot().status).toBe('streaming'));
    unsubscribe();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'LOUSHO_CLIENT_DETACHED' } });
    const seenAtDetach = client.getSnapshot().lastSeq;
    await vi.waitFor(() => expect(agent.sessions.get(client.sessionId!)!.status).toBe('idle'), { timeout: REPLY_ENDS_WITHIN_MS });
    expect(agent.sessions.eventsAfter(client.sessionId!, seenAtDetach)[0]).toMatchObject({ type: 'text.delta', fromSeq: seenAtDetach + 1 });
    // Reading the session (a restore, or the re-read after a gap) reads its whole log: `eventsAfter(id, 0)`.
    const reads = vi.spyOn(agent.sessions, 'eventsAfter');
    client.subscribe(() => {});
    await vi.waitFor(() => expect(client.getSnapshot()).toMatchObject({ status: 'idle', finishReason: 'stop' }), { timeout: REPLY_ENDS_WITHIN_MS });
    expect(reads.mock.calls.map(([, after]) => after)).toEqual([seenAtDetach]);
    reads.mockRestore();
    expect(plain(client.getSnapshot())).toEqual(plain(reduceAll(agent.sessions.eventsAfter(client.sessionId!, 0))));
  });

  it('a malformed stream is reported (LOUSHO_STREAM_*) without reconnecting in a loop', async () => {
    const { agent } = agentWith(['hi']);
    const url = await handlerUrl(agent);
    const recorder = recordingFetch((request, response) =>
      request.url.endsWith('/messages')
        ? new Response('event: protocol\ndata: {"version":"lousho.v2"}\n\nid: 1\ndata: {not json\n\n', { headers: { 'content-type': 'text/event-stream' } })
        : response,
    );
    const client = track(createAgentClient({ url, fetch: recorder.fetch }));
    expect(await client.send('hi')).toMatchObject({ ok: false, error: { code: 'LOUSHO_STREAM_BAD_JSON' } });
    expect(client.getSnapshot().error).toMatchObject({ code: 'LOUSHO_STREAM_BAD_JSON' });
    expect(recorder.requests.filter((r) => r.endsWith('/events'))).toEqual([]);
  });

  it('no unhandled rejection whatever happens (ignored promises, destroy mid-run, dead server)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { tool, started, release } = slowTool();
      const { agent } = agentWith([{ toolCalls: [{ name: 'slow', id: 's1' }] }, 'ok'], { tools: [tool] });
      const url = await handlerUrl(agent);
      const client = track(createAgentClient({ url }));
      client.subscribe(() => {});
      void client.approve();
      void client.reject('x');
      void client.answer('x');
      void client.send('go');
      await started.promise;
      void client.send('busy');
      void client.stop();
      client.destroy();
      void client.send('destroyed');
      release.open();

      const dead = track(createAgentClient({ url: 'http://127.0.0.1:9', sessionId: 'x' }));
      dead.subscribe(() => {});
      void dead.send('nobody there');
      void dead.stop();
      await vi.waitFor(() => expect(dead.getSnapshot().error).toMatchObject({ code: 'LOUSHO_NETWORK_ERROR' }));
      await vi.waitFor(() => expect(agent.sessions.get(client.sessionId!)!.status).toBe('idle'));
      await macrotask();
      await macrotask();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});
