import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentStreamEvent } from '../../src/index.js';
import { createEventStreamDecoder, createSseEventEncoder, encodeSseVersion } from '@lousho/protocol';
import { mockModel } from '@lousho/testing';
import { reduceAgentEvents, type AgentUIState, type UIPart, type UIToolPart } from '@lousho/protocol';
import { reduceAll } from '../../../protocol/test/ui-state/helpers.js';

// A model may number its calls per response (`call_0` in every step, every turn, every sub-agent),
// as an OpenAI-compatible server may: each call keeps a part of its own, at every depth, however
// the events travel (in the process, over the wire, through a reload in the middle).

const lookup = () => defineTool({ name: 'lookup', description: 'Looks up', input: z.object({ topic: z.string() }), execute: ({ topic }) => `${topic}: found` });
const call = (topic: string) => ({ name: 'lookup', id: 'call_0', args: { topic } });
const task = (subagent: string, prompt: string) => ({ name: 'task', id: 'call_0', args: { subagent, prompt } });

async function session(): Promise<AgentStreamEvent[]> {
  const grandchild = createAgent({ description: 'b', provider: mockModel([{ toolCalls: [call('milk')] }, 'milk is fine.']), tools: [lookup()] });
  const child = createAgent({ description: 'a', provider: mockModel([{ toolCalls: [call('tea')] }, { toolCalls: [task('b', 'milk?')] }, 'tea is fine.']), tools: [lookup()], subagents: { b: grandchild } });
  const agent = createAgent({
    provider: mockModel([{ toolCalls: [call('soup')] }, { toolCalls: [task('a', 'tea?')] }, 'Done 1.', { toolCalls: [call('cake')] }, 'Done 2.']),
    tools: [lookup()],
    subagents: { a: child },
    maxSubagentDepth: 2,
  });
  const events: AgentStreamEvent[] = [];
  for await (const event of agent.stream('first')) events.push(event);
  const sessionId = events[0]!.sessionId!;
  for await (const event of agent.stream('second', { sessionId })) events.push(event);
  return events;
}

/** A part as a short line: a tool part by its name, arguments, state and result, with its sub-agent's parts under it. */
function outline(parts: readonly UIPart[]): unknown[] {
  return parts.map((part) => {
    if (part.type !== 'tool') return `${part.type}:${(part as { text?: string }).text ?? ''}`;
    const { toolCallId, toolName, args, state, result, subagent } = part as UIToolPart;
    return { [`${toolCallId} ${toolName} ${JSON.stringify(args)} ${state}`]: subagent ? outline(subagent.parts) : result };
  });
}

const EXPECTED = [
  ['text:first'],
  [
    { 'call_0 lookup {"topic":"soup"} done': 'soup: found' },
    {
      'call_0 task {"subagent":"a","prompt":"tea?"} done': [
        { 'call_0 lookup {"topic":"tea"} done': 'tea: found' },
        { 'call_0 task {"subagent":"b","prompt":"milk?"} done': [{ 'call_0 lookup {"topic":"milk"} done': 'milk: found' }, 'text:milk is fine.'] },
        'text:tea is fine.',
      ],
    },
    'text:Done 1.',
  ],
  ['text:second'],
  [{ 'call_0 lookup {"topic":"cake"} done': 'cake: found' }, 'text:Done 2.'],
];

const shape = (state: AgentUIState) => state.messages.map((message) => outline(message.parts));

describe('call ids that come again in later steps, turns and sub-agents', () => {
  it('each call keeps a part of its own, with its own arguments and result, at every depth', async () => {
    expect(shape(reduceAll(await session()))).toEqual(EXPECTED);
  });

  it('over the wire: the SSE encoding says a call id again in a new run, and the decoded events build the same state', async () => {
    const events = await session();
    const encode = createSseEventEncoder();
    const frames = events.map(encode);
    const decoded: AgentStreamEvent[] = [];
    const decoder = createEventStreamDecoder((event) => decoded.push(event));
    decoder.push(encodeSseVersion() + frames.join(''));
    expect(decoded).toEqual(events.map((event) => (event.type === 'run.done' ? { ...event, text: undefined } : event)).map((event) => JSON.parse(JSON.stringify(event))));
    // The first tool event of each run names its call, whatever the run before it said last.
    const runs = new Set<string>();
    events.forEach((event, i) => {
      if (!event.type.startsWith('tool.') || runs.has(event.runId)) return;
      runs.add(event.runId);
      expect(frames[i]).toContain(`"toolCallId":"${(event as { toolCallId: string }).toolCallId}"`);
    });
    expect(runs.size).toBe(2);
    expect(shape(reduceAll(decoded))).toEqual(EXPECTED);
  });

  it('a reload at any event (the state through JSON, then the rest of the events) ends where the live state does', async () => {
    const events = await session();
    const live = reduceAll(events);
    for (let cut = 1; cut < events.length; cut++) {
      const before = JSON.parse(JSON.stringify(reduceAll(events.slice(0, cut)))) as AgentUIState;
      let state = before;
      for (const event of events.slice(cut)) state = reduceAgentEvents(state, event);
      expect(shape(state), `reloaded after event ${cut} (${events[cut - 1]!.type})`).toEqual(shape(live));
    }
  });
});
