import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentStreamEvent } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

describe('structured output', () => {
  const schema = z.object({ city: z.string(), population: z.number() });

  it('validates the final reply into a typed result.object, with a JSON response-format hint on each call', async () => {
    const provider = mockModel(['{"city":"Paris","population":2100000}']);
    const agent = createAgent({ provider, output: schema });
    const result = await agent.send('Biggest French city?');
    expectTypeOf(result.object).toEqualTypeOf<{ city: string; population: number } | undefined>();
    expect(result.object).toEqual({ city: 'Paris', population: 2100000 });
    expect(result.text).toBe('{"city":"Paris","population":2100000}');
    expect(provider.lastCall?.responseFormat).toMatchObject({ type: 'json', schema: expect.objectContaining({ type: 'object' }) });
  });

  it('gives one repair step listing the issues, then succeeds', async () => {
    const provider = mockModel(['{"city":"Paris"}', '{"city":"Paris","population":2}']);
    const result = await createAgent({ provider, output: schema }).send('x');
    expect(result.object).toEqual({ city: 'Paris', population: 2 });
    expect(result.steps).toBe(2);
    const repair = provider.lastCall!.messages.at(-1)!;
    expect(repair.role).toBe('user');
    expect(String(repair.content)).toContain('population');
  });

  it("ends with 'output-invalid' and outputError after a failed repair", async () => {
    const result = await createAgent({ provider: mockModel(['not json', '{"city":1}']), output: schema }).send('x');
    expect(result.finishReason).toBe('output-invalid');
    expect(result.outputError?.message).toEqual(expect.any(String));
    expect(result.outputError?.issues.length).toBeGreaterThan(0);
    expect(result.object).toBeUndefined();
  });

  it('the repair step counts against maxSteps', async () => {
    const result = await createAgent({ provider: mockModel(['nope', '{"city":"a","population":1}']), output: schema, maxSteps: 1 }).send('x');
    expect(result.finishReason).toBe('output-invalid');
    expect(result.steps).toBe(1);
  });
});

describe('dynamic config', () => {
  it('resolves model, instructions and tools per run from { sessionId, input, metadata }', async () => {
    const refund = defineTool({ name: 'refund', description: 'Refunds an order', input: z.object({ orderId: z.string() }), execute: async () => 'ok' });
    const provider = mockModel(['Hello!', 'Hi again']);
    const seen: unknown[] = [];
    const agent = createAgent({
      provider,
      model: ({ input }) => (typeof input === 'string' && input.length < 200 ? 'small-model' : 'large-model'),
      instructions: ({ metadata }) => `You are the support agent of ${String(metadata?.tenant ?? 'Acme')}.`,
      tools: (ctx) => {
        seen.push(ctx);
        return ctx.metadata?.role === 'admin' ? [refund] : [];
      },
    });
    await agent.send('Hi', { metadata: { tenant: 'Globex', role: 'admin' }, sessionId: 's' });
    expect(provider.calls[0]).toMatchObject({ model: 'small-model', system: 'You are the support agent of Globex.' });
    expect(provider.calls[0]!.tools?.map((t) => t.name)).toEqual(['refund']);
    await agent.send('x'.repeat(300), { sessionId: 's' });
    expect(provider.calls[1]).toMatchObject({ model: 'large-model', system: 'You are the support agent of Acme.' });
    expect(provider.calls[1]!.tools).toBeUndefined();
    expect(seen[0]).toEqual({ sessionId: 's', input: 'Hi', metadata: { tenant: 'Globex', role: 'admin' } });
  });

  it('a throwing config function fails the run with LOUSHO_CONFIG_RESOLVER_FAILED, field and cause; the session keeps its transcript', async () => {
    const cause = new Error('tenant lookup failed');
    let fail = false;
    const agent = createAgent({
      provider: mockModel(['first']),
      instructions: () => {
        if (fail) throw cause;
        return 'ok';
      },
    });
    const s = agent.session('cfg');
    await s.send('one');
    fail = true;
    const error = await s.send('two').catch((e) => e);
    expect(error).toMatchObject({ code: 'LOUSHO_CONFIG_RESOLVER_FAILED', field: 'instructions', cause });
    expect(s.messages.map((m) => m.content)).toEqual(['one', 'first']);
    const events: AgentStreamEvent[] = [];
    for await (const e of s.stream('three')) events.push(e);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'LOUSHO_CONFIG_RESOLVER_FAILED' } });
  });

  it('a paused run keeps its resolved model and resolves tools again with the same ctx', async () => {
    const pay = defineTool({ name: 'pay', description: 'pay', input: z.object({}), needsApproval: true, execute: async () => 'paid' });
    const toolCtx: unknown[] = [];
    let modelName = 'model-a';
    const provider = mockModel([{ toolCalls: [{ name: 'pay' }] }, 'done']);
    const agent = createAgent({
      provider,
      model: () => modelName,
      tools: (ctx) => {
        toolCtx.push(ctx);
        return [pay];
      },
    });
    const paused = await agent.send('pay it', { metadata: { user: 'u1' } });
    modelName = 'model-b';
    await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(provider.calls.map((c) => c.model)).toEqual(['model-a', 'model-a']);
    expect(toolCtx).toHaveLength(2);
    expect(toolCtx[1]).toEqual(toolCtx[0]);
  });
});

describe('createAgent from a model string', () => {
  it('builds the provider from the environment, and names the missing variable when the key is absent', () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(() => createAgent({ model: 'openai/gpt-4o-mini' })).toThrow(/OPENAI_API_KEY/);
      process.env.OPENAI_API_KEY = 'sk-test-not-used';
      const agent = createAgent({ model: 'openai/gpt-4o-mini', instructions: 'hi' });
      expect(typeof agent.send).toBe('function');
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });
});
