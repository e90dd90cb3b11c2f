import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, registerModel, type AgentListenerEvent, type Message } from '../../../src/index.js';
import { mockModel, type MockModelStep } from '@lousho/testing';

// $1,000 per million input tokens and $2,000 per million output tokens: 400 + 10 tokens cost $0.42.
registerModel({ id: 'priced-lead', provider: 'mock', contextWindow: 100_000, inputCostPerMTok: 1_000, outputCostPerMTok: 2_000 });
registerModel({ id: 'priced-child', provider: 'mock', contextWindow: 100_000, inputCostPerMTok: 1_000, outputCostPerMTok: 2_000 });

const task = (subagent: string, prompt: string, id: string) => ({ name: 'task', id, args: { subagent, prompt } });
const usage = (promptTokens: number, completionTokens = 0) => ({ promptTokens, completionTokens });

function lookup(ran: string[]) {
  return defineTool({
    name: 'lookup',
    description: 'Looks a topic up',
    input: z.object({ topic: z.string() }),
    execute: async ({ topic }, ctx) => {
      ran.push(ctx.toolCallId);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return `${topic}: found`;
    },
  });
}

/** A child that keeps looking things up, `tokens` per model call, for `turns` turns, then answers. */
function busyChild(prefix: string, turns: number, tokens: number): MockModelStep[] {
  return [
    ...Array.from({ length: turns }, (_, i) => ({ toolCalls: [{ name: 'lookup', id: `${prefix}${i + 1}`, args: { topic: `${prefix}${i + 1}` } }], usage: usage(tokens) })),
    { text: `${prefix} answer`, usage: usage(tokens) },
  ];
}

/** Every tool call of the transcript has exactly one result. */
function everyCallAnswered(messages: readonly Message[]): void {
  const asked = messages.flatMap((m) => m.toolCalls?.map((c) => c.id) ?? []);
  const answered = messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId);
  expect(asked.length).toBeGreaterThan(0);
  expect([...answered].sort()).toEqual([...asked].sort());
}

describe("sub-agents count against the lead's limits", () => {
  it("maxTokens: the child's model calls are checked against the lead's budget as they happen; the child stops, the lead ends budget-exceeded", async () => {
    const ran: string[] = [];
    const childModel = mockModel(busyChild('r', 10, 400));
    const researcher = createAgent({ description: 'Researches.', provider: childModel, tools: [lookup(ran)] });
    const leadModel = mockModel([{ toolCalls: [task('researcher', 'Research tea', 't1')], usage: usage(100) }, 'never']);
    const listened: AgentListenerEvent[] = [];
    const result = await createAgent({ provider: leadModel, subagents: { researcher }, limits: { maxTokens: 1000 }, onEvent: (e) => listened.push(e) }).send('x');

    // Lead 100, then the child's calls: 500, 900, 1,300 (over): its third turn's call never starts.
    expect(result.finishReason).toBe('budget-exceeded');
    expect(result.budget).toEqual({ limit: 'maxTokens', max: 1000, used: 1300 });
    expect(childModel.calls).toHaveLength(3);
    expect(ran).toEqual(['r1', 'r2']);
    expect(leadModel.calls).toHaveLength(1);
    expect(result.usage).toMatchObject({ totalTokens: 1300, modelCalls: 4 });
    expect(result.usage.delegated).toMatchObject({ totalTokens: 1200, modelCalls: 3, runs: 1 });
    // The child ended on the lead's budget, and its unstarted call got a result.
    expect(listened.find((e) => e.type === 'finish' && e.subagent)).toMatchObject({ finishReason: 'budget-exceeded' });
    const unstarted = listened.find((e) => e.type === 'tool-result' && e.subagent && e.toolCallId === 'r3') as Extract<AgentListenerEvent, { type: 'tool-result' }>;
    expect(unstarted).toMatchObject({ isError: true });
    expect(JSON.stringify(unstarted.result)).toContain('maxTokens budget ran out');
    // The task call is answered too: the lead's transcript stays valid.
    everyCallAnswered(result.messages);
    const answer = result.messages.find((m) => m.role === 'tool' && m.toolCallId === 't1')!;
    expect(answer.isError).toBe(true);
    expect(answer.content).toContain("maxTokens budget ran out while sub-agent 'researcher' was working");
  });

  it('maxCostUsd: the child’s cost counts (priced models)', async () => {
    const childModel = mockModel(busyChild('r', 10, 400), { model: 'priced-child' });
    const researcher = createAgent({ description: 'Researches.', provider: childModel, tools: [lookup([])] });
    const leadModel = mockModel([{ toolCalls: [task('researcher', 'Research tea', 't1')], usage: usage(100) }, 'never'], { model: 'priced-lead' });
    const result = await createAgent({ provider: leadModel, subagents: { researcher }, limits: { maxCostUsd: 1 } }).send('x');
    // $0.10 for the lead, $0.40 per child call: over after the child's third call ($1.30).
    expect(result.finishReason).toBe('budget-exceeded');
    expect(result.budget).toMatchObject({ limit: 'maxCostUsd', max: 1 });
    expect(result.budget!.used).toBeCloseTo(1.3, 6);
    expect(childModel.calls).toHaveLength(3);
    expect(result.usage.byModel['priced-child']).toMatchObject({ calls: 3 });
    expect(result.usage.delegated?.costUsd).toBeCloseTo(1.2, 6);
  });

  it('parallel children share the budget: each one stops once the lead, itself and its siblings together go over', async () => {
    const a = mockModel(busyChild('a', 10, 300));
    const b = mockModel(busyChild('b', 10, 300));
    const leadModel = mockModel([{ toolCalls: [task('a', 'one', 'ta'), task('b', 'two', 'tb')], usage: usage(100) }, 'never']);
    const result = await createAgent({
      provider: leadModel,
      subagents: { a: createAgent({ description: 'A.', provider: a, tools: [lookup([])] }), b: createAgent({ description: 'B.', provider: b, tools: [lookup([])] }) },
      toolConcurrency: 2,
      limits: { maxTokens: 2000 },
    }).send('x');
    expect(result.finishReason).toBe('budget-exceeded');
    // Alone, each child would have made 4 calls before going over (100 + 4 × 300 = 1,300 is under);
    // together they stop after 6 or 7 calls in all (100 + 7 × 300 = 2,200).
    const childCalls = a.calls.length + b.calls.length;
    expect(childCalls).toBeLessThanOrEqual(8);
    expect(childCalls).toBeGreaterThanOrEqual(6);
    expect(result.usage.delegated).toMatchObject({ modelCalls: childCalls, runs: 2 });
    expect(result.budget).toEqual({ limit: 'maxTokens', max: 2000, used: 100 + 300 * childCalls });
    expect(leadModel.calls).toHaveLength(1);
    everyCallAnswered(result.messages);
  });

  it('a child that finishes within the budget is counted after its batch; the lead checks before its next model call', async () => {
    const childModel = mockModel([{ text: 'done', usage: usage(950) }]);
    const leadModel = mockModel([{ toolCalls: [task('child', 'go', 't1')], usage: usage(100) }, 'never']);
    const result = await createAgent({ provider: leadModel, subagents: { child: createAgent({ description: 'C.', provider: childModel }) }, limits: { maxTokens: 1000 } }).send('x');
    // The child's one call (950) takes the run to 1,050: the child has answered, so its answer stands,
    // and the lead's batch check ends the run before the model is asked again.
    expect(result.finishReason).toBe('budget-exceeded');
    expect(result.budget).toEqual({ limit: 'maxTokens', max: 1000, used: 1050 });
    expect(result.messages.find((m) => m.toolCallId === 't1')).toMatchObject({ content: 'done' });
    expect(leadModel.calls).toHaveLength(1);
  });

  it("the child's own limits still end it on its own: its answer so far goes back to the lead, which carries on", async () => {
    const childModel = mockModel(busyChild('r', 10, 100));
    const researcher = createAgent({ description: 'Researches.', provider: childModel, tools: [lookup([])], limits: { maxTokens: 250 } });
    const leadModel = mockModel([{ toolCalls: [task('researcher', 'Research tea', 't1')], usage: usage(100) }, { text: 'Lead answer.', usage: usage(100) }]);
    const result = await createAgent({ provider: leadModel, subagents: { researcher }, limits: { maxTokens: 10_000 } }).send('x');
    expect(childModel.calls).toHaveLength(3);
    expect(result.finishReason).toBe('stop');
    expect(result.text).toBe('Lead answer.');
    const answer = result.messages.find((m) => m.toolCallId === 't1')!;
    expect(answer.isError).toBe(true);
    expect(answer.content).toContain("Sub-agent 'researcher' ran out of its own maxTokens budget");
  });

  it("nested sub-agents: a grandchild's calls count against the lead's budget too", async () => {
    const grandModel = mockModel(busyChild('g', 10, 400));
    const grandchild = createAgent({ description: 'Digs.', provider: grandModel, tools: [lookup([])] });
    const child = createAgent({ description: 'Delegates.', provider: mockModel([{ toolCalls: [task('digger', 'dig', 'g0')], usage: usage(100) }, 'never']), subagents: { digger: grandchild } });
    const leadModel = mockModel([{ toolCalls: [task('child', 'go', 't1')], usage: usage(100) }, 'never']);
    const result = await createAgent({ provider: leadModel, subagents: { child }, maxSubagentDepth: 2, limits: { maxTokens: 1000 } }).send('x');
    // 100 (lead) + 100 (child) + 400 + 400 (grandchild: 1,000, not over) + 400 (over).
    expect(grandModel.calls).toHaveLength(3);
    expect(result.finishReason).toBe('budget-exceeded');
    expect(result.budget).toEqual({ limit: 'maxTokens', max: 1000, used: 1400 });
    expect(result.usage.delegated).toMatchObject({ modelCalls: 4, runs: 2 });
    everyCallAnswered(result.messages);
  });
});
