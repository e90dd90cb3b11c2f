import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { get } from 'svelte/store';
import type { Component } from 'svelte';
import type { AgentUIState, SessionIdStorage } from '@lousho/client';
import { emailTool, eventually, lastText, scriptedAgent, serveAgent, settle, slowTool, toolParts, type AgentServer } from '@lousho/conformance';
import { loushoAgent, type LoushoAgentOptions, type LoushoAgentSource, type LoushoAgentValue } from '../src/index.js';
import LegacyProbe from './components/LegacyProbe.svelte';
import Probe from './components/Probe.svelte';

type Props = { source: LoushoAgentSource; options?: LoushoAgentOptions };
const components = { runes: Probe, 'Svelte 4 syntax': LegacyProbe } as unknown as Record<string, Component<Props>>;

const servers: AgentServer[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  for (const server of servers.splice(0)) await server.close();
});

const serve = async (agent: Parameters<typeof serveAgent>[0]): Promise<AgentServer> => {
  const server = await serveAgent(agent);
  servers.push(server);
  return server;
};
const requestsSince = (server: AgentServer, from: number): string[] => server.requests.slice(from).map((r) => `${r.method} ${r.path}`);

/** A Storage-like map (what `sessionStorage` or a cookie would be in a browser). */
function memoryStorage(initial: Record<string, string> = {}): SessionIdStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value), removeItem: (key) => void data.delete(key) };
}

/** Subscribes like a component would, recording every value; unsubscribed after the test. */
function watch(store: ReturnType<typeof loushoAgent>): { values: LoushoAgentValue[]; latest(): LoushoAgentValue; stop(): void } {
  const values: LoushoAgentValue[] = [];
  const stop = store.subscribe((value) => values.push(value));
  cleanups.push(stop);
  return { values, latest: () => values[values.length - 1]!, stop };
}

/** What a SvelteKit `load` hands over: the session's state from `GET <url>/sessions/:id`. */
async function readState(server: AgentServer, sessionId: string): Promise<AgentUIState> {
  const response = await fetch(`${server.url}/sessions/${encodeURIComponent(sessionId)}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { state: AgentUIState }).state;
}

describe('the Svelte store contract', () => {
  it('subscribe calls the listener at once and returns an unsubscribe; each subscriber gets the same value object', async () => {
    const { agent } = scriptedAgent([['Hello there.']]);
    const store = loushoAgent({ agent }, { throttleMs: 0 });
    const a = watch(store);
    const b = watch(store);
    expect(a.values).toEqual([{ messages: [], status: 'idle', pendingApproval: null, error: null, usage: null, finishReason: null, guardrail: null, sessionId: undefined }]);
    expect(b.values[0]).toBe(a.values[0]);
    expect(get(store)).toBe(a.values[0]);

    expect(await store.send('Hi')).toMatchObject({ ok: true, finishReason: 'stop' });
    await eventually(() => expect(lastText(a.latest())).toBe('Hello there.'));
    expect(b.latest()).toBe(a.latest());
    expect(a.latest().sessionId).toBe(store.sessionId);
    expect(store.sessionId).toEqual(expect.any(String));

    const seen = a.values.length;
    a.stop();
    a.stop(); // twice is harmless
    store.reset();
    await eventually(() => expect(b.latest()).toMatchObject({ messages: [], sessionId: undefined }));
    expect(a.values).toHaveLength(seen);
  });

  it('the last subscriber leaving detaches: the run goes on and keeps its transcript; a new subscriber picks it up', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = scriptedAgent([['Working.', { tool: 'slow', id: 's1' }], ['All done.']], { tools: [tool] });
    const server = await serve(agent);
    const store = loushoAgent({ url: server.url });
    const first = watch(store);
    const second = watch(store);
    const sending = store.send('go');
    await started.promise;
    await eventually(() => expect(toolParts(second.latest())).toEqual([expect.objectContaining({ state: 'running' })]));
    const sessionId = store.sessionId!;

    // One subscriber left: the other still follows.
    first.stop();
    await settle();
    expect(agent.sessions.get(sessionId)!.status).toBe('running');
    // None left: the store stops following; the run goes on on the server.
    second.stop();
    expect(await sending).toMatchObject({ ok: false, error: { code: 'LOUSHO_CLIENT_DETACHED' } });
    expect(agent.sessions.get(sessionId)!.status).toBe('running');
    const from = server.requests.length;
    release.open();
    await eventually(() => expect(agent.sessions.get(sessionId)!.status).toBe('idle'));
    expect(agent.sessions.get(sessionId)!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    await settle(5);
    expect(requestsSince(server, from)).toEqual([]);

    // Back: the store replays what it missed, from its last event.
    const third = watch(store);
    await eventually(() => expect(third.latest()).toMatchObject({ status: 'idle', finishReason: 'stop' }));
    expect(lastText(third.latest())).toBe('All done.');
    expect(requestsSince(server, from)).toEqual([`GET /sessions/${encodeURIComponent(sessionId)}/events`]);
  });

  it('without subscribers, actions still run their turn; the next subscriber sees it', async () => {
    const { agent } = scriptedAgent([['Done unseen.']]);
    const store = loushoAgent({ agent });
    expect(await store.send('go')).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(lastText(get(store))).toBe('Done unseen.');
  });
});

describe.each(Object.keys(components))('initialState from a SvelteKit load (%s)', (kind) => {
  const component = components[kind]!;

  it('the first render shows the transcript and the pending approval, with no request; approving continues the run', async () => {
    const { tool, sent } = emailTool();
    const { agent } = scriptedAgent([['Hi there.'], ['Sending.', { tool: 'send_email', id: 'call_1', args: { to: 'bob@example.com', subject: 'Friday' } }], ['Sent.']], {
      tools: [tool],
    });
    const server = await serve(agent);
    const setup = loushoAgent({ url: server.url });
    await setup.send('Hello');
    await setup.send('Email Bob');
    const sessionId = setup.sessionId!;
    const initialState = await readState(server, sessionId);
    const from = server.requests.length;

    render(component, { props: { source: { url: server.url, sessionId }, options: { initialState } } });
    // Synchronously, as hydration would show it: no flash of an empty chat.
    expect(screen.getByTestId('status').textContent).toBe('awaiting-approval');
    expect(screen.getByTestId('approval').textContent).toBe('send_email');
    expect(screen.getAllByTestId('message').map((li) => li.textContent)).toEqual(['Hello', 'Hi there.', 'Email Bob', 'Sending.']);
    await settle(5);
    // The store took the server's reading as it was: the session is not read again.
    expect(requestsSince(server, from)).toEqual([]);

    await fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await eventually(() => expect(screen.getByTestId('status').textContent).toBe('idle'));
    expect(screen.getAllByTestId('message').map((li) => li.textContent)).toEqual(['Hello', 'Hi there.', 'Email Bob', 'Sending.Sent.']);
    expect(sent).toEqual(['bob@example.com']);
    expect(requestsSince(server, from)).toEqual([`POST /sessions/${encodeURIComponent(sessionId)}/approvals/${encodeURIComponent(initialState.pendingApproval!.approvalId)}`]);
  });

  it('a turn still running when the server read it is followed in the browser from that point, to its end', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = scriptedAgent([['Working on it.', { tool: 'slow', id: 's1' }], ['All done.']], { tools: [tool] });
    const server = await serve(agent);
    const setup = loushoAgent({ url: server.url });
    const sending = setup.send('go');
    await started.promise;
    const sessionId = setup.sessionId!;
    const initialState = await readState(server, sessionId);
    expect(initialState.status).toBe('streaming');
    const from = server.requests.length;

    const values: LoushoAgentValue[] = [];
    render(component, { props: { source: { url: server.url, sessionId }, options: { initialState } } });
    const store = loushoAgent({ url: server.url, sessionId }, { initialState });
    cleanups.push(store.subscribe((value) => values.push(value)));
    expect(screen.getAllByTestId('message').map((li) => li.textContent)).toEqual(['go', 'Working on it.']);
    expect(toolParts(values[0]!)).toEqual([expect.objectContaining({ toolName: 'slow', state: 'running' })]);

    release.open();
    await eventually(() => expect(screen.getByTestId('status').textContent).toBe('idle'));
    expect(screen.getAllByTestId('message').map((li) => li.textContent)).toEqual(['go', 'Working on it.All done.']);
    await eventually(() => expect(values[values.length - 1]).toMatchObject({ status: 'idle', finishReason: 'stop' }));
    expect(toolParts(values[values.length - 1]!)).toEqual([expect.objectContaining({ state: 'done', result: 'slow result' })]);
    await sending;
    // Two stores followed the rest of the run from `lastSeq`; neither read the session again.
    const events = `GET /sessions/${encodeURIComponent(sessionId)}/events`;
    expect(requestsSince(server, from)).toEqual([events, events]);
    expect(agent.sessions.eventsAfter(sessionId, 0).filter((event) => event.type === 'run.start')).toHaveLength(1);
  });

  it('is ignored without a session to start on: the store starts empty and fetches nothing', async () => {
    const { agent } = scriptedAgent([['unused']]);
    const server = await serve(agent);
    const initialState = { messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'stale' }] }], status: 'idle', pendingApproval: null, error: null, usage: null, finishReason: 'stop', lastSeq: 4, runId: 'r' } as unknown as AgentUIState;
    render(component, { props: { source: { url: server.url }, options: { initialState } } });
    expect(screen.queryAllByTestId('message')).toEqual([]);
    expect(screen.getByTestId('session').textContent).toBe('none');
    await settle(5);
    expect(server.requests).toEqual([]);
  });
});

describe('initialState with a session id from storage, and reset', () => {
  it('uses the id storage remembers; reset() shows the new empty session at once', async () => {
    const { agent } = scriptedAgent([['First.'], ['Second.']]);
    const server = await serve(agent);
    const storage = memoryStorage();
    const setup = loushoAgent({ url: server.url, storage });
    await setup.send('one');
    const sessionId = setup.sessionId!;
    expect(storage.data.get(`lousho:session:${server.url}`)).toBe(sessionId);
    const initialState = await readState(server, sessionId);
    const from = server.requests.length;

    const store = loushoAgent({ url: server.url, storage }, { initialState });
    const view = watch(store);
    expect(view.latest()).toMatchObject({ sessionId, status: 'idle' });
    expect(lastText(view.latest())).toBe('First.');
    await settle(5);
    expect(requestsSince(server, from)).toEqual([]);

    store.reset();
    expect(view.latest()).toEqual({ messages: [], status: 'idle', pendingApproval: null, error: null, usage: null, finishReason: null, guardrail: null, sessionId: undefined });
    expect(storage.data.size).toBe(0);
    expect(await store.send('two')).toMatchObject({ ok: true, finishReason: 'stop' });
    await eventually(() => expect(lastText(view.latest())).toBe('Second.'));
    expect(store.sessionId).not.toBe(sessionId);
  });

  it('reset() before the seed was taken over still leaves the seed behind', () => {
    const initialState = { messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'old' }] }], status: 'idle', pendingApproval: null, error: null, usage: null, finishReason: 'stop', lastSeq: 4, runId: 'r' } as unknown as AgentUIState;
    const store = loushoAgent({ url: 'http://127.0.0.1:9/never', sessionId: 'sess_old', fetch: () => Promise.reject(new TypeError('no network in this test')) }, { initialState });
    const values: LoushoAgentValue[] = [];
    // Subscribed and gone again at once: the client's restore from the seed has not happened yet.
    store.subscribe((value) => values.push(value))();
    expect(values[0]!.messages).toHaveLength(1);
    store.reset();
    expect(get(store)).toMatchObject({ messages: [], sessionId: undefined });
  });
});
