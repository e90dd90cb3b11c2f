import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { AgentClient, ClientTransport, EventReader } from '../../src/client/index.js';
import { createAgent, defineTool, type AgentStreamEvent } from '../../src/index.js';
import { mockModel } from '../../src/testing/index.js';
import { initialAgentUIState, reduceAgentEvents, type AgentUIState } from '../../src/ui-state/index.js';

// The browser client does not ship the sub-agent nesting: it loads it with import() at the first
// event with `subagent`, holding the events that come meanwhile. Whatever the timing, it must end
// in the state the public reducer (nesting built in) gives for the same events.

async function collect(run: AsyncIterable<AgentStreamEvent>): Promise<AgentStreamEvent[]> {
  const out: AgentStreamEvent[] = [];
  for await (const event of run) out.push(event);
  return out;
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

/** A transport whose `send` streams what the test pushes, one event at a time. */
function scripted() {
  let push: ((event: AgentStreamEvent) => void) | undefined;
  let end: (() => void) | undefined;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reader: EventReader = (onEvent) =>
    new Promise<void>((resolve) => {
      push = onEvent;
      end = resolve;
      open();
    });
  const transport: ClientTransport = {
    load: async () => undefined,
    send: async () => reader,
    decide: async () => reader,
    follow: async () => async () => {},
    resume: async () => reader,
    stop: async () => true,
  };
  return { transport, opened, push: (event: AgentStreamEvent) => push!(event), end: () => end!() };
}

let release: () => void;

beforeEach(() => {
  // A fresh client module graph (its reducer without the nesting), whose import() of the nesting
  // waits until the test releases it.
  vi.resetModules();
  const gate = new Promise<void>((resolve) => (release = resolve));
  vi.doMock('../../src/ui-state/subagents.js', async (importOriginal) => {
    await gate;
    return importOriginal();
  });
});

afterEach(() => {
  vi.doUnmock('../../src/ui-state/subagents.js');
});

async function freshClient(transport: ClientTransport): Promise<AgentClient> {
  // (The client core alone: the in-process transport's modules reach the agent's, which nest statically.)
  const { createClientCore } = await import('../../src/client/client-core.js');
  return createClientCore(transport, undefined, 'lousho:session', {});
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the client loads the sub-agent nesting on demand', () => {
  it('holds the events from the first sub-agent event until the nesting is loaded, then ends in the static reducer’s state', async () => {
    const events = await delegationEvents();
    const first = events.findIndex((event) => event.subagent);
    expect(first).toBeGreaterThan(0);
    const { transport, opened, push, end } = scripted();
    const client = await freshClient(transport);
    const sent = client.send('x');
    await opened;
    for (const event of events.slice(0, first)) push(event);
    const before = client.getSnapshot();
    expect(before).toEqual(reduceAll(events.slice(0, first)));
    // From the first sub-agent event on, nothing is applied while the import is pending...
    for (const event of events.slice(first)) {
      push(event);
      await tick();
    }
    expect(client.getSnapshot()).toBe(before);
    end();
    await tick();
    // ...and the leg is not over for the client before its events are applied.
    expect(client.getSnapshot()).toBe(before);
    release();
    const result = await sent;
    expect(result.ok).toBe(true);
    expect(client.getSnapshot()).toEqual(reduceAll(events));
    expect(client.getSnapshot().messages[1]!.parts.find((part) => part.type === 'tool')).toMatchObject({ toolCallId: 't1', subagent: { name: 'researcher', status: 'done' } });
  });

  it('a stop during the pending import resolves once the held events, its end among them, are applied', async () => {
    const events = await delegationEvents();
    const first = events.findIndex((event) => event.subagent);
    const { transport, opened, push, end } = scripted();
    const client = await freshClient(transport);
    const sent = client.send('x');
    await opened;
    for (const event of events.slice(0, first + 1)) push(event);
    const stopped = client.stop();
    for (const event of events.slice(first + 1)) push(event);
    end();
    await tick();
    release();
    const [stop, send] = await Promise.all([stopped, sent]);
    expect(stop.ok && send.ok).toBe(true);
    expect(stop.state).toEqual(reduceAll(events));
    expect(client.getSnapshot()).toEqual(reduceAll(events));
  });

  it('a reset during the pending import drops the held events; the next run is nested as usual', async () => {
    const events = await delegationEvents();
    const first = events.findIndex((event) => event.subagent);
    const one = scripted();
    const client = await freshClient({ ...one.transport, send: (...args) => current.transport.send(...args) });
    let current = one;
    const sent = client.send('x');
    await one.opened;
    for (const event of events.slice(0, first + 2)) one.push(event);
    client.reset();
    expect(client.getSnapshot()).toEqual(reduceAll([]));
    release();
    await sent;
    await tick();
    // Nothing of the old session came back.
    expect(client.getSnapshot()).toEqual(reduceAll([]));
    const two = (current = scripted());
    const again = client.send('x');
    await two.opened;
    for (const event of events) two.push(event);
    two.end();
    expect((await again).ok).toBe(true);
    expect(client.getSnapshot()).toEqual(reduceAll(events));
  });
});
