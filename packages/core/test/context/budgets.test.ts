import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, AgentExecutor, createAgent, createCompactionHook, defineTool, memoryStore, registerModel, ToolRegistry, summarizeStrategy, type AgentStreamEvent, type Message } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

registerModel({ id: 'priced-model', provider: 'mock', contextWindow: 100_000, inputCostPerMTok: 1_000, outputCostPerMTok: 2_000 });
registerModel({ id: 'small-window', provider: 'mock', contextWindow: 4000 });

function counter() {
  const ran: number[] = [];
  const tool = defineTool({ name: 'count', description: 'Counts', input: z.object({ n: z.number() }), execute: async ({ n }) => (ran.push(n), `counted ${n}`) });
  return { tool, ran };
}

const calls = (...ns: number[]) => ({ toolCalls: ns.map((n) => ({ name: 'count', args: { n }, id: `c${n}` })), usage: { promptTokens: 100, completionTokens: 10 } });

/** Every tool call of the transcript has exactly one result. */
function everyCallAnswered(messages: readonly Message[]): void {
  const asked = messages.flatMap((m) => m.toolCalls?.map((c) => c.id) ?? []);
  const answered = messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId);
  expect(answered.sort()).toEqual(asked.sort());
}

describe('limits', () => {
  it('maxToolCalls: a turn whose calls would go over starts none of them; each gets a result; the run ends budget-exceeded', async () => {
    const { tool, ran } = counter();
    const provider = mockModel([calls(1, 2), calls(3, 4), 'never']);
    const result = await createAgent({ provider, tools: [tool], limits: { maxToolCalls: 3 } }).send('count');
    expect(result.finishReason).toBe('budget-exceeded');
    expect(result.budget).toEqual({ limit: 'maxToolCalls', max: 3, used: 4 });
    expect(ran).toEqual([1, 2]);
    expect(provider.calls).toHaveLength(2);
    everyCallAnswered(result.messages);
    expect(result.messages.find((m) => m.toolCallId === 'c3')).toMatchObject({ isError: true, content: expect.stringContaining('maxToolCalls budget ran out') });
  });

  it('maxTokens: checked after each model call; calls the model asked for are answered, not run', async () => {
    const { tool, ran } = counter();
    const provider = mockModel([calls(1), calls(2), 'never']);
    const result = await createAgent({ provider, tools: [tool], limits: { maxTokens: 150 } }).send('count');
    // 110 tokens after the first call (under), 220 after the second (over).
    expect(result.finishReason).toBe('budget-exceeded');
    expect(result.budget).toEqual({ limit: 'maxTokens', max: 150, used: 220 });
    expect(ran).toEqual([1]);
    expect(result.usage.totalTokens).toBe(220);
    everyCallAnswered(result.messages);
  });

  it('maxTokens: a final reply that goes over ends budget-exceeded with result.budget, and keeps the reply', async () => {
    const reply = { text: 'A long answer.', usage: { promptTokens: 100, completionTokens: 80 } };
    const result = await createAgent({ provider: mockModel([reply]), limits: { maxTokens: 150 } }).send('explain');
    expect(result.finishReason).toBe('budget-exceeded');
    expect(result.text).toBe('A long answer.');
    expect(result.budget).toEqual({ limit: 'maxTokens', max: 150, used: 180 });
    const events: AgentStreamEvent[] = [];
    for await (const event of createAgent({ provider: mockModel([reply]), limits: { maxTokens: 150 } }).stream('explain')) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'budget-exceeded', budget: { limit: 'maxTokens', used: 180 } });
  });

  it('a run that finishes within its budgets keeps its own finish reason and has no budget', async () => {
    const { tool } = counter();
    const result = await createAgent({ provider: mockModel([calls(1), 'Done.']), tools: [tool], limits: { maxTokens: 10_000, maxToolCalls: 5 } }).send('count');
    expect(result.finishReason).toBe('stop');
    expect(result.budget).toBeUndefined();
  });

  it('maxCostUsd: priced models are watched; an unpriced model is refused before any money is spent', async () => {
    const { tool } = counter();
    const provider = mockModel([calls(1), calls(2), 'never'], { model: 'priced-model' });
    // 100 input tokens at $1,000 per million plus 10 output at $2,000: $0.12 per call.
    const result = await createAgent({ provider, tools: [tool], limits: { maxCostUsd: 0.2 } }).send('count');
    expect(result.finishReason).toBe('budget-exceeded');
    expect(result.budget).toMatchObject({ limit: 'maxCostUsd', max: 0.2 });
    expect(result.budget!.used).toBeCloseTo(0.24, 6);

    const unpriced = mockModel(['x'], { model: 'no-price-model' });
    await expect(createAgent({ provider: unpriced, limits: { maxCostUsd: 1 } }).send('hi')).rejects.toMatchObject({
      code: 'LOUSHO_INVALID_CONFIG',
      message: expect.stringContaining("price of the model 'no-price-model'"),
    });
    expect(unpriced.calls).toHaveLength(0);
  });

  it('maxDurationMs: checked after each tool batch', async () => {
    const slow = defineTool({ name: 'slow', description: 'Slow', input: z.object({}), execute: () => new Promise((resolve) => setTimeout(() => resolve('ok'), 60)) });
    const provider = mockModel([{ toolCalls: [{ name: 'slow', args: {} }] }, 'never']);
    const result = await createAgent({ provider, tools: [slow], limits: { maxDurationMs: 30 } }).send('go');
    expect(result.finishReason).toBe('budget-exceeded');
    expect(result.budget).toMatchObject({ limit: 'maxDurationMs', max: 30 });
    expect(result.budget!.used).toBeGreaterThanOrEqual(30);
    expect(provider.calls).toHaveLength(1);
  });

  it('a compaction summary (delegated work) counts against maxTokens and in usage.delegated, as a model call but not as a run', async () => {
    const summarizer = mockModel([{ text: 'Summary.', usage: { promptTokens: 5000, completionTokens: 50 } }], { model: 'sum' });
    const provider = mockModel([{ text: 'First.', usage: { promptTokens: 10, completionTokens: 1 } }, { toolCalls: [{ name: 'count', args: { n: 1 } }], usage: { promptTokens: 10, completionTokens: 1 } }], { model: 'small-window' });
    const { tool, ran } = counter();
    const agent = createAgent({
      provider,
      tools: [tool],
      store: memoryStore(),
      hooks: [createCompactionHook({ thresholdPercent: 50, protectedTokens: 100, strategy: summarizeStrategy({ model: summarizer }) })],
      limits: { maxTokens: 1000 },
    });
    const long = Array.from({ length: 5 }, (_, i) => ({ role: 'user' as const, content: `${i} ${'words '.repeat(400)}` }));
    await agent.session('s').send(long);
    const result = await agent.session('s').send('next');
    expect(summarizer.calls).toHaveLength(1);
    expect(result.usage.delegated).toMatchObject({ inputTokens: 5000, outputTokens: 50, modelCalls: 1, runs: 0 });
    expect(result.finishReason).toBe('budget-exceeded');
    // This run: the summary's 5,050 (delegated) + its own call's 11: over, so its tool call never runs.
    expect(result.budget).toEqual({ limit: 'maxTokens', max: 1000, used: 5061 });
    expect(ran).toEqual([]);
  });

  it('stream(): run.done carries the budget', async () => {
    const { tool } = counter();
    const run = createAgent({ provider: mockModel([calls(1, 2)]), tools: [tool], limits: { maxToolCalls: 1 } }).stream('count');
    const events: AgentStreamEvent[] = [];
    for await (const event of run) events.push(event);
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: 'run.done', finishReason: 'budget-exceeded', budget: { limit: 'maxToolCalls', max: 1, used: 2 } });
    // Both calls the model asked for end with a result the UI sees.
    expect(events.filter((e) => e.type === 'tool.error').map((e) => (e as { error: { kind: string } }).error.kind)).toEqual(['not-run', 'not-run']);
    expect((await run.result).budget).toEqual({ limit: 'maxToolCalls', max: 1, used: 2 });
  });

  it('AgentExecutor.execute() takes limits too', async () => {
    const { tool, ran } = counter();
    const toolRegistry = new ToolRegistry();
    toolRegistry.register(tool);
    const agent = AgentBuilder.create().setName('counter').setInstructions('Count.').build();
    const result = await AgentExecutor.execute({ agent, input: 'count', provider: mockModel([calls(1), calls(2), 'never']), toolRegistry, limits: { maxToolCalls: 1 } });
    expect(result.finishReason).toBe('budget-exceeded');
    expect(result.budget).toEqual({ limit: 'maxToolCalls', max: 1, used: 2 });
    expect(ran).toEqual([1]);
  });

  it('refuses limits it cannot use', () => {
    const provider = mockModel(['x']);
    expect(() => createAgent({ provider, limits: { maxTokens: 0 } })).toThrow(/limits.maxTokens must be a positive integer/);
    expect(() => createAgent({ provider, limits: { maxToolCalls: 1.5 } })).toThrow(/limits.maxToolCalls must be a positive integer/);
    expect(() => createAgent({ provider, limits: { maxCostUsd: -1 } })).toThrow(/limits.maxCostUsd must be a positive number/);
    expect(() => createAgent({ provider, limits: { maxTokenz: 5 } as never })).toThrow(expect.objectContaining({ code: 'LOUSHO_UNKNOWN_OPTION' }));
    expect(() => createAgent({ provider, limits: 5 as never })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });
});
