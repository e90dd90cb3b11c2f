import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentStreamEvent } from '../../src/index.js';
import { compactEventLog, replayAfter } from '../../src/stores/index.js';
import { mockModel, type MockModelStep } from '@lousho/testing';
import { reduceAgentEvents, type AgentUIState, type UIToolPart } from '@lousho/protocol';
import { reduceAll, toolParts } from '../../../protocol/test/ui-state/helpers.js';

const task = (subagent: string, prompt: string, id: string) => ({ name: 'task', id, args: { subagent, prompt } });

function lookup() {
  return defineTool({ name: 'lookup', description: 'Looks up', input: z.object({ topic: z.string() }), execute: ({ topic }) => `${topic}: found` });
}
function publish() {
  return defineTool({ name: 'publish', description: 'Publishes', input: z.object({ title: z.string() }), needsApproval: true, execute: ({ title }) => `published ${title}` });
}

async function collect(run: AsyncIterable<AgentStreamEvent>): Promise<AgentStreamEvent[]> {
  const out: AgentStreamEvent[] = [];
  for await (const event of run) out.push(event);
  return out;
}

const taskPart = (state: AgentUIState, id: string) => toolParts(state).find((p) => p.toolCallId === id)!;

describe('reduceAgentEvents: sub-agents nest into the part that started them', () => {
  it("shows each child's text and tool calls inside its task part, parallel children apart, the lead's own text outside", async () => {
    const child = (name: string, topic: string) =>
      createAgent({ description: name, provider: mockModel([{ text: `Looking ${topic} up.`, toolCalls: [{ name: 'lookup', id: `${name}_1`, args: { topic } }] }, `${topic} is fine.`], { delayMs: 1 }), tools: [lookup()] });
    const agent = createAgent({
      provider: mockModel([{ text: 'Asking both.', toolCalls: [task('a', 'tea', 'ta'), task('b', 'coffee', 'tb')] }, 'Both are fine.']),
      subagents: { a: child('a', 'tea'), b: child('b', 'coffee') },
      toolConcurrency: 2,
    });
    const state = reduceAll(await collect(agent.stream('x')));
    expect(state.status).toBe('idle');
    const reply = state.messages[1]!;
    expect(reply.parts.map((p) => (p.type === 'tool' ? `tool:${p.toolCallId}` : `${p.type}:${(p as { text: string }).text}`))).toEqual([
      'text:Asking both.',
      'tool:ta',
      'tool:tb',
      'text:Both are fine.',
    ]);
    for (const [id, name, topic] of [
      ['ta', 'a', 'tea'],
      ['tb', 'b', 'coffee'],
    ] as const) {
      const part = taskPart(state, id);
      expect(part).toMatchObject({ state: 'done', result: `${topic} is fine.` });
      expect(part.subagent).toEqual({
        name,
        status: 'done',
        parts: [
          { type: 'text', text: `Looking ${topic} up.` },
          { type: 'tool', toolCallId: `${name}_1`, toolName: 'lookup', displayName: 'lookup', state: 'done', argsText: JSON.stringify({ topic }), args: { topic }, result: `${topic}: found` },
          { type: 'text', text: `${topic} is fine.` },
        ],
      });
    }
  });

  it("pauses on a child's approval: the lead waits, the child's part waits, and the decision goes on inside it", async () => {
    const researcher = createAgent({ description: 'r', provider: mockModel([{ toolCalls: [{ name: 'publish', id: 'p1', args: { title: 'Tea' } }] }, 'Published.']), tools: [publish()] });
    const agent = createAgent({ provider: mockModel([{ toolCalls: [task('researcher', 'go', 't1')] }, 'Done.']), subagents: { researcher } });
    const first = await collect(agent.stream('x', { sessionId: 's' }));
    const paused = reduceAll(first);
    expect(paused.status).toBe('awaiting-approval');
    expect(paused.pendingApproval).toMatchObject({ toolCallId: 'p1', subagent: { name: 'researcher', depth: 1, toolCallId: 't1' } });
    // No part of the lead's own for the child's call: it is inside the task part.
    expect(toolParts(paused).map((p) => p.toolCallId)).toEqual(['t1']);
    const part = taskPart(paused, 't1');
    expect(part.state).toBe('running');
    expect(part.subagent).toMatchObject({ name: 'researcher', status: 'awaiting-approval', parts: [{ type: 'tool', toolCallId: 'p1', state: 'awaiting-approval', approval: { kind: 'tool' } }] });

    const rest = await collect(await agent.approvals.resolveStream({ id: paused.pendingApproval!.approvalId, approved: true }));
    const done = reduceAll(rest, paused);
    expect(done.status).toBe('idle');
    expect(done.pendingApproval).toBeNull();
    expect(taskPart(done, 't1').subagent).toMatchObject({
      status: 'done',
      parts: [{ toolCallId: 'p1', state: 'done', result: 'published Tea', approval: { approved: true } }, { type: 'text', text: 'Published.' }],
    });
  });

  it('nests a sub-agent of a sub-agent inside its parent, and a stop cancels the open delegations', async () => {
    const grandchild = createAgent({ description: 'g', provider: mockModel(['deep answer']) });
    const child = createAgent({ description: 'c', provider: mockModel([{ toolCalls: [task('g', 'deeper', 'g1')] }, 'child answer']), subagents: { g: grandchild } });
    const agent = createAgent({ provider: mockModel([{ toolCalls: [task('c', 'go', 't1')] }, 'lead answer']), subagents: { c: child }, maxSubagentDepth: 2 });
    const state = reduceAll(await collect(agent.stream('x')));
    const outer = taskPart(state, 't1').subagent!;
    expect(outer.name).toBe('c');
    const inner = outer.parts[0] as UIToolPart;
    expect(inner).toMatchObject({ toolCallId: 'g1', state: 'done', subagent: { name: 'g', status: 'done', parts: [{ type: 'text', text: 'deep answer' }] } });

    // A run stopped while a child works: the delegation and its sub-agent end cancelled.
    const controller = new AbortController();
    const slow = createAgent({ description: 's', provider: mockModel([(request) => new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(request.signal!.reason)))]) });
    const events: AgentStreamEvent[] = [];
    for await (const e of createAgent({ provider: mockModel([{ toolCalls: [task('s', 'go', 't9')] }]), subagents: { s: slow } }).stream('x', { signal: controller.signal })) {
      events.push(e);
      if (e.type === 'step.start' && e.subagent) controller.abort();
    }
    const stopped = reduceAll(events);
    expect(stopped.status).toBe('aborted');
    expect(taskPart(stopped, 't9')).toMatchObject({ state: 'cancelled', subagent: { name: 's', status: 'cancelled' } });
  });
});

/** A run of a lead with 1-3 children chosen by fast-check: what each says, whether it calls a tool, its speed. */
const arbTeam = fc.record({
  children: fc.array(fc.record({ words: fc.array(fc.constantFrom('tea', 'is', 'a', 'leaf', 'ok'), { minLength: 1, maxLength: 6 }), tool: fc.boolean(), delayMs: fc.integer({ min: 0, max: 2 }) }), {
    minLength: 1,
    maxLength: 3,
  }),
  concurrency: fc.integer({ min: 1, max: 3 }),
});

async function teamEvents(team: { children: { words: string[]; tool: boolean; delayMs: number }[]; concurrency: number }): Promise<AgentStreamEvent[]> {
  const subagents: Record<string, ReturnType<typeof createAgent>> = {};
  team.children.forEach((c, i) => {
    const script: MockModelStep[] = c.tool ? [{ text: 'Checking.', toolCalls: [{ name: 'lookup', id: `l${i}`, args: { topic: 't' } }] }, c.words.join(' ')] : [c.words.join(' ')];
    subagents[`c${i}`] = createAgent({ description: `child ${i}`, provider: mockModel(script, { delayMs: c.delayMs, chunkSize: 2 }), tools: [lookup()] });
  });
  const calls = team.children.map((_, i) => task(`c${i}`, 'go', `t${i}`));
  const agent = createAgent({ provider: mockModel([{ text: 'On it.', toolCalls: calls }, 'All done.'], { chunkSize: 3 }), subagents, toolConcurrency: team.concurrency });
  return collect(agent.stream('x'));
}

describe('reduceAgentEvents with sub-agents (properties)', () => {
  // Each generated run is checked at every cut point (a run costs far more than a check).
  it('exact once: re-applying from any cut with any overlap, or after a JSON round trip there, gives the same state', async () => {
    await fc.assert(
      fc.asyncProperty(arbTeam, fc.nat(), async (team, overlapSeed) => {
        const events = await teamEvents(team);
        const full = reduceAll(events);
        let before = reduceAll([]);
        for (let cut = 0; cut <= events.length; cut++) {
          if (cut > 0) before = reduceAgentEvents(before, events[cut - 1]!);
          const overlap = (overlapSeed + cut) % (cut + 1);
          expect(reduceAll(events.slice(cut - overlap), before)).toEqual(full);
          expect(reduceAll(events.slice(cut - overlap), JSON.parse(JSON.stringify(before)) as AgentUIState)).toEqual(full);
        }
        // Every delegation shows its sub-agent's whole answer.
        team.children.forEach((c, i) => {
          const sub = taskPart(full, `t${i}`).subagent!;
          expect(sub.status).toBe('done');
          expect(sub.parts.at(-1)).toEqual({ type: 'text', text: c.words.join(' ') });
        });
      }),
      { numRuns: 15 },
    );
  }, 60_000);

  it('compaction: the compacted log, and a replay of it from any point, give the state of the full log', async () => {
    await fc.assert(
      fc.asyncProperty(arbTeam, async (team) => {
        const events = await teamEvents(team);
        const full = reduceAll(events);
        const compacted = compactEventLog(events);
        expect(reduceAll(compacted)).toEqual(full);
        let before = reduceAll([]);
        for (let cut = 0; cut <= events.length; cut++) {
          if (cut > 0) before = reduceAgentEvents(before, events[cut - 1]!);
          const seen = cut === 0 ? 0 : events[cut - 1]!.seq;
          expect(reduceAll(replayAfter(compacted, seen), before)).toEqual(full);
        }
      }),
      { numRuns: 15 },
    );
  }, 60_000);

  it('an event of a sub-agent whose part is not there changes no message', () => {
    const state = reduceAll([{ type: 'run.start', seq: 1, runId: 'r', model: 'm' } as AgentStreamEvent]);
    const next = reduceAgentEvents(state, { type: 'text.delta', seq: 2, runId: 'r', step: 1, delta: 'hi', subagent: { name: 'x', depth: 1, toolCallId: 'nope' } } as AgentStreamEvent);
    expect(next.messages).toBe(state.messages);
    expect(next.lastSeq).toBe(2);
  });
});
