import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, withArtifacts, type AgentStreamEvent } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { initialAgentUIState, reduceAgentEvents, type AgentClient, type AgentUIState, type ClientTransport, type EventReader } from '../src/index.js';

// The browser client ships a reducer that knows the events of a run that streams text and calls
// tools that succeed with plain results. At the first event it does not know (a call's failure or
// progress, a result with artifacts, an approval's, a sub-agent's, a flow's) it loads the
// full reducer with import(), and once that has settled follows the session on from that event,
// which it had not applied: no event is skipped (`onEvent` sees each once, in order), the state
// ends as the public reducer's for the same events, and a sub-agent's work never shows as the lead's.

async function collect(run: AsyncIterable<AgentStreamEvent>): Promise<AgentStreamEvent[]> {
  const out: AgentStreamEvent[] = [];
  for await (const event of run) out.push(event);
  return out;
}

/** A run that pauses on an approval: the lead's text, then a call that asks first. */
async function approvalEvents(): Promise<AgentStreamEvent[]> {
  const send = defineTool({ name: 'send', description: 'Sends', input: z.object({ to: z.string() }), needsApproval: true, execute: ({ to }) => `sent to ${to}` });
  const agent = createAgent({ provider: mockModel([{ text: 'Sending.', toolCalls: [{ name: 'send', id: 's1', args: { to: 'bob' } }] }, 'Sent.']), tools: [send] });
  return collect(agent.stream('x', { sessionId: 's' }));
}

/** A delegation: the lead's text, a task whose child looks something up, the lead's answer. */
async function delegationEvents(): Promise<AgentStreamEvent[]> {
  const lookup = defineTool({ name: 'lookup', description: 'Looks up', input: z.object({ topic: z.string() }), execute: ({ topic }) => `${topic}: found` });
  const researcher = createAgent({ description: 'r', provider: mockModel([{ text: 'Looking.', toolCalls: [{ name: 'lookup', id: 'l1', args: { topic: 'tea' } }] }, 'Tea is fine.']), tools: [lookup] });
  const agent = createAgent({
    provider: mockModel([{ text: 'Asking.', toolCalls: [{ name: 'task', id: 't1', args: { subagent: 'researcher', prompt: 'tea?' } }] }, 'It is fine.']),
    subagents: { researcher },
  });
  return collect(agent.stream('x', { sessionId: 's' }));
}

const reduceAll = (events: AgentStreamEvent[]): AgentUIState => events.reduce<AgentUIState>((state, event) => reduceAgentEvents(state, event), initialAgentUIState());

/**
 * A server playing back `events`: `send` streams them, `load` serves the state of those streamed so
 * far (as GET /sessions/:id does), `follow` streams the rest after `afterSeq`.
 */
function server(events: AgentStreamEvent[]) {
  let streamed = 0;
  const calls: string[] = [];
  const streamFrom =
    (from: number): EventReader =>
    async (onEvent) => {
      for (const event of events.filter((e) => e.seq > from)) {
        streamed = Math.max(streamed, event.seq);
        onEvent(event);
        await tick();
      }
    };
  const transport: ClientTransport = {
    load: async () => {
      calls.push(`load@${streamed}`);
      return { state: reduceAll(events.filter((e) => e.seq <= streamed)), running: streamed < events.at(-1)!.seq };
    },
    send: async () => (calls.push('send'), streamFrom(0)),
    decide: async () => streamFrom(0),
    follow: async (_id, afterSeq) => (calls.push(`follow@${afterSeq}`), streamFrom(afterSeq)),
    resume: async () => streamFrom(0),
    stop: async () => true,
    queue: async () => ({}),
  };
  return { transport, calls };
}

let release: () => void;
let failing = false;
let imported = 0;

beforeEach(() => {
  // A fresh client module graph (its entry reducer), whose import() of the full reducer waits until
  // the test releases it (or fails it).
  vi.resetModules();
  imported = 0;
  failing = false;
  const gate = new Promise<void>((resolve) => (release = resolve));
  // Of @lousho/protocol, the client core keeps what a bundler keeps (the entry reducer, not the
  // full one): unbundled, the entry module would load the full reducer, which teaches the entry one
  // its events when it loads, and nothing would be loaded on demand.
  vi.doMock('@lousho/protocol', async () => ({
    ...(await import('../../protocol/src/ui-state/reduce.js')),
    ...(await import('../../protocol/src/ui-state/snapshot.js')),
    ...(await import('../../protocol/src/protocol/ids.js')),
    ...(await import('../../protocol/src/protocol/errors.js')),
  }));
  vi.doMock('../src/full-reducer.js', async () => {
    imported++;
    await gate;
    if (failing) throw new TypeError('Failed to fetch dynamically imported module');
    return import('../../protocol/src/ui-state/reduce-agent-events.js');
  });
});

afterEach(() => {
  vi.doUnmock('@lousho/protocol');
  vi.doUnmock('../src/full-reducer.js');
});

/** Every event the client reported through `onEvent`. */
let seen: AgentStreamEvent[];

async function freshClient(transport: ClientTransport): Promise<AgentClient> {
  // (The client core alone: the in-process transport's modules reach the agent's, which import the full reducer statically.)
  const { createClientCore } = await import('../src/client-core.js');
  seen = [];
  return createClientCore(transport, undefined, 'lousho:session', { onEvent: (event) => seen.push(event) });
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the client loads the full reducer on demand', () => {
  it('a run without sub-agents or approvals never loads it', async () => {
    // (Numbered again without the sub-agent's events, so they follow on without a gap.)
    const events = (await delegationEvents()).filter((event) => !event.subagent).map((event, i) => ({ ...event, seq: i + 1 }));
    const { transport, calls } = server(events);
    const client = await freshClient(transport);
    expect((await client.send('x')).ok).toBe(true);
    expect(imported).toBe(0);
    expect(calls).toEqual(['send']);
    expect(seen).toEqual(events);
  });

  /**
   * Sends on a fresh client whose stream's first unknown event is `events[first]`: until the full
   * reducer loads, the state is the one before that event; then the client follows on from it,
   * ends in the public reducer's state, and has reported every event once. Returns the client.
   */
  async function loadsAt(events: AgentStreamEvent[], first: number): Promise<AgentClient> {
    expect(first).toBeGreaterThan(0);
    const { transport, calls } = server(events);
    const client = await freshClient(transport);
    const sent = client.send('x');
    while (!imported) await tick();
    for (let i = 0; i < 5; i++) await tick();
    // The event waits for the reducer that knows it: nothing from it on is shown before that.
    expect(client.getSnapshot()).toEqual(reduceAll(events.slice(0, first)));
    release();
    expect((await sent).ok).toBe(true);
    expect(calls).toEqual(['send', `follow@${events[first - 1]!.seq}`]);
    expect(client.getSnapshot()).toEqual(reduceAll(events));
    expect(seen).toEqual(events);
    return client;
  }

  it('at the first approval: loads it, then follows on from the approval; every event is reported once', async () => {
    const events = await approvalEvents();
    expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'awaiting-approval' });
    const client = await loadsAt(events, events.findIndex((event) => event.type === 'approval.requested'));
    expect(client.getSnapshot()).toMatchObject({ status: 'awaiting-approval', finishReason: 'awaiting-approval', pendingApproval: { toolCallId: 's1', toolName: 'send' } });
  });

  it('at the first failed call: loads it, then follows on from the failure; the call shows its error', async () => {
    const execute = (): string => {
      throw new Error('404');
    };
    const fails = defineTool({ name: 'fetch_page', description: 'Fetches', input: z.object({ url: z.string() }), execute });
    const agent = createAgent({ provider: mockModel([{ text: 'Fetching.', toolCalls: [{ name: 'fetch_page', id: 'f1', args: { url: 'x' } }] }, 'It failed.']), tools: [fails] });
    const events = await collect(agent.stream('x', { sessionId: 's' }));
    // (Until then the call shows as running.)
    const client = await loadsAt(events, events.findIndex((event) => event.type === 'tool.error'));
    expect(client.getSnapshot()).toMatchObject({ status: 'idle', finishReason: 'stop' });
    expect(client.getSnapshot().messages[1]!.parts.find((part) => part.type === 'tool')).toMatchObject({ toolCallId: 'f1', state: 'error', error: { toolName: 'fetch_page' } });
  });

  it('at the first result with artifacts: loads it, then follows on from that result; the call shows its artifacts', async () => {
    const chart = defineTool({ name: 'chart', description: 'Charts', input: z.object({ of: z.string() }), execute: ({ of }) => withArtifacts(`charted ${of}`, [{ type: 'chart', data: { of } }]) });
    const agent = createAgent({ provider: mockModel([{ text: 'Charting.', toolCalls: [{ name: 'chart', id: 'c1', args: { of: 'tea' } }] }, 'Done.']), tools: [chart] });
    const events = await collect(agent.stream('x', { sessionId: 's' }));
    const client = await loadsAt(events, events.findIndex((event) => event.type === 'tool.done'));
    expect(client.getSnapshot().messages[1]!.parts.find((part) => part.type === 'tool')).toMatchObject({ toolCallId: 'c1', state: 'done', result: 'charted tea', artifacts: [{ type: 'chart', data: { of: 'tea' } }] });
  });

  it('at the first sub-agent event: loads it, then follows on from that event; ends in the public reducer’s state', async () => {
    const events = await delegationEvents();
    const first = events.findIndex((event) => event.subagent);
    expect(first).toBeGreaterThan(0);
    const { transport, calls } = server(events);
    const client = await freshClient(transport);
    const sent = client.send('x');
    while (!imported) await tick();
    for (let i = 0; i < 5; i++) await tick();
    // Nothing of the sub-agent is shown before the full reducer is there (never as the lead's own
    // parts), and the stream is not followed on before the import has settled.
    expect(imported).toBe(1);
    expect(client.getSnapshot()).toEqual(reduceAll(events.slice(0, first)));
    expect(calls).toEqual(['send']);
    release();
    const result = await sent;
    expect(result.ok).toBe(true);
    expect(calls).toEqual(['send', `follow@${events[first - 1]!.seq}`]);
    expect(client.getSnapshot()).toEqual(reduceAll(events));
    expect(seen).toEqual(events);
    expect(client.getSnapshot().messages[1]!.parts.find((part) => part.type === 'tool')).toMatchObject({ toolCallId: 't1', subagent: { name: 'researcher', status: 'done' } });
  });

  it('a full reducer that cannot be loaded fails the leg with an error, and shows nothing of the sub-agent', async () => {
    const events = await delegationEvents();
    const first = events.findIndex((event) => event.subagent);
    const { transport, calls } = server(events);
    const client = await freshClient(transport);
    const sent = client.send('x');
    while (!imported) await tick();
    failing = true;
    release();
    const result = await sent;
    expect(result.ok).toBe(false);
    // (A browser's failed import() is a TypeError: LOUSHO_NETWORK_ERROR; vitest's mock wraps it.)
    expect(!result.ok && result.error.code).toMatch(/^LOUSHO_(NETWORK_ERROR|INTERNAL)$/);
    expect(client.getSnapshot().status).toBe('error');
    expect(client.getSnapshot().messages).toEqual(reduceAll(events.slice(0, first)).messages);
    expect(calls).toEqual(['send']);
  });

  it('a reset while the full reducer loads: nothing of the old session comes back; the next run is nested as usual', async () => {
    const events = await delegationEvents();
    const { transport } = server(events);
    const client = await freshClient(transport);
    const sent = client.send('x');
    while (!imported) await tick();
    client.reset();
    release();
    await sent;
    await tick();
    expect(client.getSnapshot()).toEqual(reduceAll([]));
    expect((await client.send('x')).ok).toBe(true);
    expect(client.getSnapshot()).toEqual(reduceAll(events));
  });
});
