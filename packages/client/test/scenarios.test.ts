import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAgentHandler, defineTool, type AgentStreamEvent } from '@lousho/core';
// The HTTP handler's test helpers (a served agent, scripted tools): one copy, in core's tests.
import { agentWith, coveredSeqs, emailCall, emailTool, gate, plain, reduceAll, serve, slowTool, type TestServer } from '../../core/test/http/helpers.js';
import { createAgentClient, type AgentClient, type AgentClientOptions, type AgentUIState, type ClientAgent, type UIToolPart } from '../src/index.js';

/**
 * One list of scenarios, run against both transports: what a user sees must not depend on
 * whether the agent runs in the page's process or behind the HTTP handler.
 */
interface Harness {
  name: string;
  client(agent: ClientAgent, options?: AgentClientOptions & { sessionId?: string }): Promise<AgentClient>;
}

const servers: TestServer[] = [];
const clients: AgentClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const server of servers.splice(0)) await server.close();
});

// Every scenario must end without an unhandled rejection, whatever the client did.
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});
afterEach(() => {
  expect(unhandled).toEqual([]);
});

const handlers = new WeakMap<ClientAgent, string>();
const harnesses: Harness[] = [
  {
    name: 'in-process',
    async client(agent, { sessionId, ...options } = {}) {
      const client = createAgentClient({ agent, ...(sessionId ? { sessionId } : {}) }, { throttleMs: 0, ...options });
      clients.push(client);
      return client;
    },
  },
  {
    name: 'http',
    async client(agent, { sessionId, ...options } = {}) {
      let url = handlers.get(agent);
      if (!url) {
        const server = await serve(createAgentHandler(agent));
        servers.push(server);
        url = server.url;
        handlers.set(agent, url);
      }
      const client = createAgentClient({ url, ...(sessionId ? { sessionId } : {}) }, { throttleMs: 0, ...options });
      clients.push(client);
      return client;
    },
  },
];

const toolParts = (state: AgentUIState): UIToolPart[] => state.messages.flatMap((m) => m.parts.filter((p): p is UIToolPart => p.type === 'tool'));
const lastText = (state: AgentUIState): string => {
  const parts = state.messages.at(-1)?.parts ?? [];
  const text = [...parts].reverse().find((p) => p.type === 'text');
  return text && 'text' in text ? text.text : '';
};

/** The state the agent's own log reduces to: what any client must end with. */
const fromLog = (agent: ClientAgent, sessionId: string) => plain(reduceAll(agent.sessions.eventsAfter(sessionId, 0)));

/** A tool that blocks until the run is stopped (it honours the abort signal). */
function waitUntilStopped() {
  const started = gate();
  const tool = defineTool({
    name: 'wait',
    description: 'waits',
    input: z.object({}),
    execute: (_args, ctx) =>
      new Promise((_resolve, reject) => {
        started.open();
        const signal = ctx.abortSignal!;
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
  });
  return { tool, started };
}

describe.each(harnesses)('client scenarios over $name', (harness) => {
  it('send → streaming text → tool call → approval → approve → final', async () => {
    const { tool, sent } = emailTool();
    const { agent } = agentWith([{ text: 'Let me send that.', toolCalls: [emailCall('bob@example.com')] }, 'Email sent.'], { tools: [tool] });
    const onFinish = vi.fn();
    const events: AgentStreamEvent[] = [];
    const client = await harness.client(agent, { onFinish, onEvent: (e) => events.push(e) });
    const statuses = new Set<string>();
    client.subscribe((state) => statuses.add(state.status));
    expect(client.getSnapshot().status).toBe('idle');

    const paused = await client.send('Email Bob');
    expect(paused).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });
    expect(statuses).toContain('streaming');
    const state = client.getSnapshot();
    expect(state.status).toBe('awaiting-approval');
    expect(state.pendingApproval).toMatchObject({ toolName: 'send_email', kind: 'tool' });
    expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(state.messages[1]!.parts[0]).toEqual({ type: 'text', text: 'Let me send that.' });
    expect(toolParts(state)).toEqual([expect.objectContaining({ state: 'awaiting-approval', args: { to: 'bob@example.com', subject: 'Hi' } })]);
    expect(sent).toEqual([]);

    const done = await client.approve();
    expect(done).toMatchObject({ ok: true, finishReason: 'stop' });
    const final = client.getSnapshot();
    expect(final).toMatchObject({ status: 'idle', pendingApproval: null, finishReason: 'stop', error: null });
    expect(toolParts(final)).toEqual([expect.objectContaining({ state: 'done', result: { messageId: 'bob@example.com:Hi' }, approval: expect.objectContaining({ approved: true }) })]);
    expect(lastText(final)).toBe('Email sent.');
    expect(sent).toEqual(['bob@example.com']);
    expect(plain(final)).toEqual(fromLog(agent, client.sessionId!));
    expect(onFinish.mock.calls.map(([info]) => info.finishReason)).toEqual(['awaiting-approval', 'stop']);
    // Every event once, in order (over HTTP a burst of deltas may come as one merged delta: `fromSeq`..`seq`).
    expect(coveredSeqs(events)).toEqual(coveredSeqs(events).map((_, i) => i + 1));
  });

  it('reject with a note', async () => {
    const { tool, sent } = emailTool();
    const { agent } = agentWith([{ toolCalls: [emailCall('bob@example.com')] }, 'OK, I will not send it.'], { tools: [tool] });
    const client = await harness.client(agent);
    await client.send('Email Bob');
    const result = await client.reject('not to externals');
    expect(result).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(toolParts(client.getSnapshot())).toEqual([expect.objectContaining({ state: 'rejected', approval: expect.objectContaining({ approved: false, note: 'not to externals' }) })]);
    expect(lastText(client.getSnapshot())).toBe('OK, I will not send it.');
    expect(sent).toEqual([]);
  });

  it('a question, answered', async () => {
    const { agent, provider } = agentWith([{ toolCalls: [{ name: 'ask_question', id: 'q1', args: { question: 'Which city?' } }] }, 'Paris it is.'], { askQuestion: true });
    const client = await harness.client(agent);
    await client.send('Plan a trip');
    expect(client.getSnapshot().pendingApproval).toMatchObject({ kind: 'question', question: 'Which city?' });
    // The wrong action for a question is refused, without touching the state.
    const before = client.getSnapshot();
    expect(await client.approve()).toMatchObject({ ok: false, error: { code: 'LOUSHO_APPROVAL_KIND_MISMATCH' } });
    expect(client.getSnapshot()).toBe(before);
    expect(await client.answer('Paris')).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(toolParts(client.getSnapshot())[0]).toMatchObject({ state: 'done', result: 'Paris', approval: { answer: 'Paris' } });
    expect(provider.lastCall!.messages.find((m) => m.role === 'tool')!.content).toBe('Paris');
  });

  it('stop mid-stream: the run ends as aborted and every tool call ends with a result', async () => {
    const { tool, started } = waitUntilStopped();
    const { agent } = agentWith([{ text: 'Working.', toolCalls: [{ name: 'wait', id: 'w1' }, { name: 'wait', id: 'w2' }] }, 'never'], { tools: [tool] });
    const client = await harness.client(agent);
    client.subscribe(() => {});
    const sending = client.send('go');
    await started.promise;
    const stopped = await client.stop();
    expect(stopped).toMatchObject({ ok: true, finishReason: 'aborted' });
    expect(await sending).toMatchObject({ ok: true, finishReason: 'aborted' });
    const state = client.getSnapshot();
    expect(state.status).toBe('aborted');
    expect(toolParts(state)).toHaveLength(2);
    for (const part of toolParts(state)) expect(['done', 'error', 'cancelled']).toContain(part.state);
    const transcript = agent.sessions.get(client.sessionId!)!.messages;
    const calls = transcript.flatMap((m) => m.toolCalls ?? []).map((c) => c.id);
    expect(transcript.filter((m) => m.role === 'tool').map((m) => m.toolCallId).sort()).toEqual(calls.sort());
    // Nothing runs any more: a new turn is possible.
    expect(await client.stop()).toMatchObject({ ok: true, finishReason: null });
  });

  it('a provider error: state.error with its code, onError called, the action resolves with it', async () => {
    const { agent } = agentWith([new Error('provider down')]);
    const onError = vi.fn();
    const client = await harness.client(agent, { onError });
    const result = await client.send('Hi');
    expect(result).toMatchObject({ ok: false, error: { code: expect.any(String), message: expect.stringContaining('provider down') } });
    expect(client.getSnapshot()).toMatchObject({ status: 'error', error: { code: expect.any(String) } });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: expect.any(String), message: expect.stringContaining('provider down') }));
  });

  it('reload: a new client on the same session restores the transcript and the pending approval', async () => {
    const { tool, sent } = emailTool();
    const { agent } = agentWith(['First answer.', { text: 'Sending.', toolCalls: [emailCall('bob@example.com')] }, 'Sent.'], { tools: [tool] });
    const first = await harness.client(agent);
    await first.send('Hello');
    await first.send('Email Bob');
    const before = first.getSnapshot();
    first.destroy();

    const second = await harness.client(agent, { sessionId: first.sessionId! });
    await second.start();
    const restored = second.getSnapshot();
    expect(restored.status).toBe('awaiting-approval');
    expect(restored.pendingApproval).toEqual(before.pendingApproval);
    expect(restored.lastSeq).toBe(before.lastSeq);
    expect(restored.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    // The latest run comes back exactly as it streamed.
    expect(plain(restored.messages.slice(2))).toEqual(plain(before.messages.slice(2)));
    expect(lastText({ ...restored, messages: restored.messages.slice(0, 2) })).toBe('First answer.');

    expect(await second.approve()).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(sent).toEqual(['bob@example.com']);
    expect(lastText(second.getSnapshot())).toBe('Sent.');
  });

  it('resumes a turn still running when a new client starts on the session', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = agentWith([{ text: 'Working on it.', toolCalls: [{ name: 'slow', id: 's1' }] }, 'All done.'], { tools: [tool] });
    const first = await harness.client(agent);
    first.subscribe(() => {});
    const pending = first.send('go');
    await started.promise;
    first.destroy();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'LOUSHO_CLIENT_DESTROYED' } });
    expect(agent.sessions.get(first.sessionId!)!.status).toBe('running');

    const onFinish = vi.fn();
    const second = await harness.client(agent, { sessionId: first.sessionId!, onFinish });
    const seen: string[] = [];
    second.subscribe((state) => seen.push(state.status));
    await vi.waitFor(() => expect(lastText(second.getSnapshot())).toBe('Working on it.'));
    expect(['submitted', 'streaming']).toContain(second.getSnapshot().status);
    release.open();
    await vi.waitFor(() => expect(onFinish).toHaveBeenCalledOnce());
    expect(second.getSnapshot()).toMatchObject({ status: 'idle', finishReason: 'stop' });
    expect(lastText(second.getSnapshot())).toBe('All done.');
    expect(plain(second.getSnapshot())).toEqual(fromLog(agent, first.sessionId!));
  });

  it('detaching stops following but not the run; subscribing again picks the run up', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = agentWith([{ toolCalls: [{ name: 'slow', id: 's1' }] }, 'Finished.'], { tools: [tool] });
    const client = await harness.client(agent);
    const unsubscribe = client.subscribe(() => {});
    const pending = client.send('go');
    await started.promise;
    await vi.waitFor(() => expect(toolParts(client.getSnapshot())).toEqual([expect.objectContaining({ state: 'running' })]));
    unsubscribe();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'LOUSHO_CLIENT_DETACHED' } });
    release.open();
    await vi.waitFor(() => expect(agent.sessions.get(client.sessionId!)!.status).toBe('idle'));
    expect(client.getSnapshot().status).toBe('streaming'); // not followed while detached
    client.subscribe(() => {});
    await vi.waitFor(() => expect(client.getSnapshot()).toMatchObject({ status: 'idle', finishReason: 'stop' }));
    expect(lastText(client.getSnapshot())).toBe('Finished.');
    expect(plain(client.getSnapshot())).toEqual(fromLog(agent, client.sessionId!));
  });

  it('refuses impossible actions with a clear result and no unhandled rejection', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = agentWith([{ toolCalls: [{ name: 'slow', id: 's1' }] }, 'ok'], { tools: [tool] });
    const onError = vi.fn();
    const client = await harness.client(agent, { onError });
    expect(await client.approve()).toMatchObject({ ok: false, error: { code: 'LOUSHO_APPROVAL_NOT_FOUND' } });
    expect(await client.answer('x')).toMatchObject({ ok: false, error: { code: 'LOUSHO_APPROVAL_NOT_FOUND' } });
    const first = client.send('go');
    await started.promise;
    // Ignored on purpose: a caller that does not await must not cause an unhandled rejection.
    void client.send('again', { mode: 'turn' });
    // (`mode: 'turn'`: a turn now or nothing; a plain send would wait in the session's queue.)
    expect(await client.send('again', { mode: 'turn' })).toMatchObject({ ok: false, error: { code: 'LOUSHO_SESSION_BUSY' } });
    release.open();
    expect(await first).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'LOUSHO_SESSION_BUSY' }));
    client.destroy();
    expect(await client.send('after destroy')).toMatchObject({ ok: false, error: { code: 'LOUSHO_CLIENT_DESTROYED' } });
  });

  it('reset starts a new, empty session; the old one keeps its transcript', async () => {
    const { agent } = agentWith(['one', 'two']);
    const client = await harness.client(agent);
    await client.send('first');
    const oldId = client.sessionId!;
    client.reset();
    expect(client.getSnapshot().messages).toEqual([]);
    expect(client.sessionId).toBeUndefined();
    await client.send('second');
    expect(client.sessionId).not.toBe(oldId);
    expect(client.getSnapshot().messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(agent.sessions.get(oldId)!.messages).toHaveLength(2);
  });

  it('a stale client (another tab ran turns meanwhile) re-reads the session instead of skipping events', async () => {
    const { agent } = agentWith(['one', 'two', 'three']);
    const tabA = await harness.client(agent);
    await tabA.send('first');
    const tabB = await harness.client(agent, { sessionId: tabA.sessionId! });
    await tabB.send('second');
    expect(await tabA.send('third')).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(tabA.getSnapshot().messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(lastText(tabA.getSnapshot())).toBe('three');
    expect(tabA.getSnapshot().lastSeq).toBe(agent.sessions.get(tabA.sessionId!)!.lastSeq);
  });

  it('throttles: 1,000 deltas make far fewer notifications; the snapshot is always current and the end flushes', async () => {
    const text = 'x'.repeat(1000);
    const { agent } = agentWith([{ text, chunkSize: 1 }]);
    const client = await harness.client(agent, { throttleMs: 1000 });
    let calls = 0;
    let lastNotified: AgentUIState | undefined;
    client.subscribe((state) => {
      calls++;
      lastNotified = state;
    });
    const result = await client.send('go');
    expect(result).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(streamedDeltas(agent, client.sessionId!)).toBe(1000);
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThan(50);
    expect(lastNotified).toBe(client.getSnapshot());
    expect(lastText(client.getSnapshot())).toBe(text);
  });

  it('with throttleMs: 0, notifies on every change; an unchanged state keeps its identity', async () => {
    const { agent } = agentWith([{ text: 'a b c d e', chunkSize: 1 }]);
    const received: AgentStreamEvent[] = [];
    const client = await harness.client(agent, { throttleMs: 0, onEvent: (event) => received.push(event) });
    const states: AgentUIState[] = [];
    client.subscribe((state) => states.push(state));
    await client.send('go');
    // Each delta the client got is a change (over HTTP, the server sends a burst's deltas merged).
    expect(coveredSeqs(received.filter((e) => e.type === 'text.delta')).length).toBe(streamedDeltas(agent, client.sessionId!));
    expect(states.length).toBeGreaterThanOrEqual(received.filter((e) => e.type === 'text.delta').length);
    expect(new Set(states).size).toBe(states.length);
    expect(client.getSnapshot()).toBe(client.getSnapshot());
  });
});

/** How many text deltas the finished run streamed (its log keeps them merged: `fromSeq..seq` each). */
function streamedDeltas(agent: { sessions: { eventsAfter(id: string, after: number): AgentStreamEvent[] } }, sessionId: string): number {
  let count = 0;
  for (const event of agent.sessions.eventsAfter(sessionId, 0)) if (event.type === 'text.delta') count += event.seq - (event.fromSeq ?? event.seq) + 1;
  return count;
}
