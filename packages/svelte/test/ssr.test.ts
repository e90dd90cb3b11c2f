// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'svelte/server';
import { get } from 'svelte/store';
import type { Component } from 'svelte';
import { createAgentHandler } from '@lousho/core';
import type { AgentUIState, SessionIdStorage } from '@lousho/client';
import { emailTool, scriptedAgent, settle } from '@lousho/conformance';
import { loushoAgent, type LoushoAgentOptions, type LoushoAgentSource } from '../src/index.js';
import LegacyProbe from './components/LegacyProbe.svelte';
import Probe from './components/Probe.svelte';

type Props = { source: LoushoAgentSource; options?: LoushoAgentOptions };
const components = { runes: Probe, 'Svelte 4 syntax': LegacyProbe } as unknown as Record<string, Component<Props>>;

const storageWith = (entries: Record<string, string>): SessionIdStorage => ({
  getItem: (key) => entries[key] ?? null,
  setItem: () => {},
  removeItem: () => {},
});

/**
 * A session paused on an email approval, made through the HTTP handler, and its state as
 * `GET /sessions/:id` returns it (what a SvelteKit `load` reads from its `+server.ts` route).
 */
async function pausedSession() {
  const { tool } = emailTool();
  const { agent } = scriptedAgent([['Hi there.'], ['Sending.', { tool: 'send_email', id: 'call_1', args: { to: 'bob@example.com', subject: 'Friday' } }]], { tools: [tool] });
  const handle = createAgentHandler(agent, { basePath: '/api/agent' });
  for (const input of ['Hello', 'Email Bob']) {
    const turn = await handle(
      new Request('http://app.test/api/agent/sessions/sess_1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input }) }),
    );
    await turn.text(); // the whole stream: the turn has ended
  }
  const response = await handle(new Request('http://app.test/api/agent/sessions/sess_1'));
  expect(response.status).toBe(200);
  const { state } = (await response.json()) as { state: AgentUIState };
  return { agent, state };
}

afterEach(() => vi.restoreAllMocks());

describe.each(Object.keys(components))('server rendering (%s)', (kind) => {
  const component = components[kind]!;

  it('renders the empty state without fetching, reading storage\'s session or touching the agent', async () => {
    const fetchSpy = vi.fn<typeof fetch>();
    const globalFetch = vi.spyOn(globalThis, 'fetch');
    const { agent, model } = scriptedAgent([['never']]);
    const get = vi.spyOn(agent.sessions, 'get');
    const stream = vi.spyOn(agent, 'stream');
    const url = 'http://app.test/api/agent';

    const overHttp = render(component, { props: { source: { url, fetch: fetchSpy, storage: storageWith({ [`lousho:session:${url}`]: 'sess_saved' }) } } });
    expect(overHttp.body).toContain('<p data-testid="status">idle</p>');
    expect(overHttp.body).toContain('<p data-testid="session">sess_saved</p>');
    const inProcess = render(component, { props: { source: { agent, sessionId: 'sess_2' } } });
    expect(inProcess.body).toContain('<p data-testid="session">sess_2</p>');

    await settle(5);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(globalFetch).not.toHaveBeenCalled();
    expect(get).not.toHaveBeenCalled();
    expect(stream).not.toHaveBeenCalled();
    expect(model.calls).toEqual([]);
  });

  it('renders the initialState a load read: the transcript and the pending approval are in the HTML', async () => {
    const { state } = await pausedSession();
    const fetchSpy = vi.fn<typeof fetch>();
    const { body } = render(component, { props: { source: { url: 'http://app.test/api/agent', sessionId: 'sess_1', fetch: fetchSpy }, options: { initialState: state } } });
    expect(body).toContain('<p data-testid="status">awaiting-approval</p>');
    expect(body).toContain('<p data-testid="approval">send_email</p>');
    const messages = [...body.matchAll(/<li data-testid="message" data-role="(\w+)">([^<]*)<\/li>/g)].map((match) => [match[1], match[2]]);
    expect(messages).toEqual([
      ['user', 'Hello'],
      ['assistant', 'Hi there.'],
      ['user', 'Email Bob'],
      ['assistant', 'Sending.'],
    ]);
    await settle(5);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('keeps each request to its own state: concurrent renders never see each other', async () => {
    const { state } = await pausedSession();
    const url = 'http://app.test/api/agent';
    const renders = await Promise.all(
      ['a', 'b', 'c'].map(async (name, i) => {
        await settle(i);
        return render(component, { props: { source: { url, ...(name === 'b' ? { sessionId: 'sess_1' } : {}) }, options: name === 'b' ? { initialState: state } : {} } }).body;
      }),
    );
    expect(renders[0]).toContain('<p data-testid="status">idle</p>');
    expect(renders[0]).not.toContain('data-testid="message"');
    expect(renders[1]).toContain('<p data-testid="approval">send_email</p>');
    expect(renders[2]).toEqual(renders[0]);
  });
});

describe('the store on the server, outside a component', () => {
  it('subscribing reads the value and starts nothing; get() works', async () => {
    const fetchSpy = vi.fn<typeof fetch>();
    const store = loushoAgent({ url: 'http://app.test/api/agent', sessionId: 'sess_x', fetch: fetchSpy });
    const seen: string[] = [];
    const unsubscribe = store.subscribe((value) => seen.push(value.status));
    expect(seen).toEqual(['idle']);
    expect(typeof unsubscribe).toBe('function');
    unsubscribe();
    expect(get(store)).toMatchObject({ status: 'idle', messages: [], sessionId: 'sess_x' });
    await settle(5);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('escapes model text: HTML in a message is text in the rendered page', () => {
    const initialState = {
      messages: [{ id: 'm1', role: 'assistant', parts: [{ type: 'text', text: '<img src=x onerror="alert(1)">' }] }],
      status: 'idle',
      pendingApproval: null,
      error: null,
      usage: null,
      finishReason: 'stop',
      lastSeq: 3,
      runId: 'run_1',
    } as unknown as AgentUIState;
    const { body } = render(Probe as unknown as Component<Props>, { props: { source: { url: '/api/agent', sessionId: 's' }, options: { initialState } } });
    expect(body).not.toContain('<img');
    expect(body).toContain('&lt;img src=x onerror="alert(1)">');
  });
});
