import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  AgentExecutor,
  createAgent,
  defineTool,
  InMemoryApprovalStore,
  resumeAfterApproval,
  ToolRegistry,
  withArtifacts,
  type AgentStreamEvent,
  type SandboxAdapter,
} from '../../src/index.js';
import { mockModel } from '@lousho/testing';

describe('AgentBuilder + AgentExecutor', () => {
  const lookupOrder = defineTool({
    name: 'lookup_order',
    description: 'Look up an order',
    input: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => ({ orderId, status: 'shipped' }),
  });

  it('runs a built config with tools named from a shared registry', async () => {
    const registry = new ToolRegistry();
    registry.register(lookupOrder);
    const agent = AgentBuilder.create().setName('support').setInstructions('Help with orders.').setModel('gpt-4o-mini').build();
    expect(() => AgentBuilder.create().build()).toThrow(/setName/);
    const provider = mockModel([{ toolCalls: [{ name: 'lookup_order', args: { orderId: 'A1' } }] }, 'Order A1 has shipped.']);
    const result = await AgentExecutor.execute({ agent: { ...agent, tools: ['lookup_order'] }, input: 'Where is A1?', provider, toolRegistry: registry });
    expect(result.text).toBe('Order A1 has shipped.');
    expect(result.toolCalls[0]?.result).toEqual({ orderId: 'A1', status: 'shipped' });
    expect(provider.calls[0]).toMatchObject({ model: 'gpt-4o-mini', system: 'Help with orders.' });
  });

  it('names an unknown tool in the config with a fix-it error', async () => {
    const agent = AgentBuilder.create('x').build();
    await expect(AgentExecutor.execute({ agent: { ...agent, tools: ['missing'] }, input: 'hi', provider: mockModel(['x']), toolRegistry: new ToolRegistry() })).rejects.toMatchObject({
      code: 'LOUSHO_INVALID_CONFIG',
      message: expect.stringContaining('missing'),
    });
  });

  it('resumeAfterApproval continues an execution paused for approval, with the steps counted', async () => {
    const pay = defineTool({ name: 'pay', description: 'pay', input: z.object({ amount: z.number() }), needsApproval: true, execute: async ({ amount }) => `paid ${amount}` });
    const approvalStore = new InMemoryApprovalStore();
    const agent = AgentBuilder.create('payer').addTool(pay).build();
    const provider = mockModel([{ toolCalls: [{ name: 'pay', args: { amount: 5 } }] }, 'Paid.']);
    const paused = await AgentExecutor.execute({ agent, input: 'pay 5', provider, approvalStore });
    expect(paused.finishReason).toBe('awaiting-approval');
    const done = await resumeAfterApproval({ agent, provider, approvalStore, approvalId: paused.approvalId!, approved: true });
    expect(done.text).toBe('Paid.');
    expect(done.steps).toBe(2);
    expect(done.toolCalls.map((c) => c.result)).toEqual(['paid 5']);
    await expect(resumeAfterApproval({ agent, provider, approvalStore, approvalId: paused.approvalId!, approved: true })).rejects.toMatchObject({ code: 'LOUSHO_APPROVAL_NOT_PENDING' });
  });

  it('an aborted signal reaches resumeAfterApproval too', async () => {
    const pay = defineTool({ name: 'pay', description: 'pay', input: z.object({}), needsApproval: true, execute: async () => 'paid' });
    const approvalStore = new InMemoryApprovalStore();
    const agent = AgentBuilder.create('payer').addTool(pay).build();
    const provider = mockModel([{ toolCalls: [{ name: 'pay' }] }, 'never']);
    const paused = await AgentExecutor.execute({ agent, input: 'pay', provider, approvalStore });
    const controller = new AbortController();
    controller.abort();
    const result = await resumeAfterApproval({ agent, provider, approvalStore, approvalId: paused.approvalId!, approved: true }, { signal: controller.signal });
    expect(result.finishReason).toBe('aborted');
    // The approved call was never reached: it still gets exactly one (cancelled) result.
    expect(result.messages.filter((m) => m.role === 'tool')).toHaveLength(1);
    expect(provider.calls).toHaveLength(1);
  });
});

describe('results the UI sees but the model does not', () => {
  it('artifacts reach tool.done events and onToolResult, never the transcript', async () => {
    const chart = defineTool({
      name: 'chart',
      description: 'Draws a chart',
      input: z.object({ period: z.enum(['week', 'month']) }),
      execute: async ({ period }) => withArtifacts(`Chart for the ${period} is ready.`, [{ type: 'chart', data: { points: [1, 2, 3] }, mimeType: 'application/json' }]),
    });
    const seen: unknown[] = [];
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'chart', args: { period: 'week' } }] }, 'Here it is.']), tools: [chart], onToolResult: (r) => seen.push(r.artifacts) });
    const events: AgentStreamEvent[] = [];
    const run = agent.stream('chart please');
    for await (const e of run) events.push(e);
    const result = await run.result;
    expect(events.find((e) => e.type === 'tool.done')).toMatchObject({ result: 'Chart for the week is ready.', artifacts: [{ type: 'chart', data: { points: [1, 2, 3] } }] });
    expect(seen).toEqual([[{ type: 'chart', data: { points: [1, 2, 3] }, mimeType: 'application/json' }]]);
    const toolMessage = result.messages.find((m) => m.role === 'tool')!;
    expect(toolMessage.content).toBe('Chart for the week is ready.');
    expect(JSON.stringify(result.messages)).not.toContain('points');
  });

  it('an outputSchema mismatch becomes an output-validation error result', async () => {
    const typed = defineTool({
      name: 'typed',
      description: 'typed',
      input: z.object({}),
      outputSchema: z.object({ n: z.number() }),
      execute: async () => ({ n: 'not a number' }) as unknown as { n: number },
    });
    const result = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'typed' }] }, 'ok']), tools: [typed] }).send('x');
    const body = JSON.parse(result.messages.find((m) => m.role === 'tool')!.content as string);
    expect(body).toMatchObject({ kind: 'output-validation', toolName: 'typed' });
    expect(result.toolCalls[0]!.isError).toBe(true);
  });
});

describe('usage across a run', () => {
  it('estimates a step whose provider reports no usage, and marks the run estimated', async () => {
    const result = await createAgent({ provider: mockModel([{ text: 'Some reply text here.', usage: null }]) }).send('Summarise this report please');
    expect(result.usage.estimated).toBe(true);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.stepUsage[0]).toMatchObject({ step: 1, estimated: true });
  });

  it('continues from the saved totals after an approval', async () => {
    const pay = defineTool({ name: 'pay', description: 'pay', input: z.object({}), needsApproval: true, execute: async () => 'paid' });
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'pay' }], usage: { promptTokens: 100, completionTokens: 10 } }, { text: 'done', usage: { promptTokens: 200, completionTokens: 20 } }]),
      tools: [pay],
    });
    const paused = await agent.send('pay');
    expect(paused.usage).toMatchObject({ inputTokens: 100, outputTokens: 10, modelCalls: 1 });
    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(done.usage).toMatchObject({ inputTokens: 300, outputTokens: 30, modelCalls: 2 });
    expect(done.stepUsage.map((s) => s.step)).toEqual([1, 2]);
  });
});

describe('sandboxed tools', () => {
  it('refuses a requiresSandbox tool without a sandboxExecute (kind sandbox)', async () => {
    const risky = defineTool({ name: 'risky', description: 'risky', input: z.object({}), requiresSandbox: true, execute: async () => 'ran unsandboxed' });
    const result = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'risky' }] }, 'ok']), tools: [risky] }).send('x');
    expect(JSON.parse(result.messages.find((m) => m.role === 'tool')!.content as string)).toMatchObject({ kind: 'sandbox', error: 'SandboxRequiredError' });
  });

  it('runs through the configured sandbox, passing the execution context as the third argument', async () => {
    const ran: string[] = [];
    const sandbox: SandboxAdapter = {
      run: (fn) => {
        ran.push('in sandbox');
        return Promise.resolve(fn());
      },
    };
    let ctxId: string | undefined;
    const boxed = defineTool({
      name: 'boxed',
      description: 'boxed',
      input: z.object({}),
      requiresSandbox: true,
      execute: async () => 'wrong path',
      sandboxExecute: async (_args, _sandbox, ctx) => {
        ctxId = ctx.toolCallId;
        return 'sandboxed';
      },
    });
    const result = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'boxed', id: 'b1' }] }, 'ok']), tools: [boxed], sandbox }).send('x');
    expect(result.messages.find((m) => m.role === 'tool')!.content).toBe('sandboxed');
    expect(ctxId).toBe('b1');
    expect(ran).toEqual(['in sandbox']);
    // Without a configured SandboxAdapter the call is refused, never run in-process.
    const refused = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'boxed', id: 'b2' }] }, 'ok']), tools: [boxed] }).send('x');
    expect(JSON.parse(refused.messages.find((m) => m.role === 'tool')!.content as string)).toMatchObject({ kind: 'sandbox' });
  });
});

describe('tool progress', () => {
  it('ctx.reportProgress streams tool.progress events between tool.call and tool.done, never to the model', async () => {
    const slow = defineTool({
      name: 'crawl',
      description: 'crawl pages',
      input: z.object({ pages: z.number() }),
      execute: async ({ pages }, ctx) => {
        for (let i = 1; i <= pages; i++) ctx.reportProgress?.({ done: i, total: pages });
        return `crawled ${pages}`;
      },
    });
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'crawl', args: { pages: 3 }, id: 'k' }] }, 'ok']), tools: [slow] });
    const events: AgentStreamEvent[] = [];
    const run = agent.stream('go');
    for await (const e of run) events.push(e);
    const relevant = events.filter((e) => e.type.startsWith('tool.') && e.type !== 'tool.input.start' && e.type !== 'tool.input.delta').map((e) => e.type);
    expect(relevant).toEqual(['tool.call', 'tool.progress', 'tool.progress', 'tool.progress', 'tool.done']);
    expect(events.filter((e) => e.type === 'tool.progress').map((e) => (e as { progress: unknown }).progress)).toEqual([
      { done: 1, total: 3 },
      { done: 2, total: 3 },
      { done: 3, total: 3 },
    ]);
    expect(JSON.stringify((await run.result).messages)).not.toContain('total');
  });
});

describe('documented behaviour of the builder and of old approval records', () => {
  const lookupOrder = defineTool({
    name: 'lookup_order',
    description: 'Look up an order',
    input: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => ({ orderId, status: 'shipped' }),
  });

  it('a built config without tools may use every tool of the registry, as a plain config does', async () => {
    const registry = new ToolRegistry();
    registry.register(lookupOrder);
    const built = AgentBuilder.create('support').build();
    expect(built).not.toHaveProperty('tools');
    for (const agent of [built, { name: 'support' }]) {
      const provider = mockModel([{ toolCalls: [{ name: 'lookup_order', args: { orderId: 'A1' } }] }, 'Shipped.']);
      const result = await AgentExecutor.execute({ agent, input: 'Where is A1?', provider, toolRegistry: registry });
      expect(result.toolCalls[0]).toMatchObject({ isError: false, result: { orderId: 'A1', status: 'shipped' } });
      expect(provider.calls[0]!.tools?.map((t) => t.name)).toEqual(['lookup_order']);
    }
    // Naming tools still limits the agent to them.
    const other = defineTool({ name: 'other', description: 'Other', input: z.object({}), execute: async () => 'x' });
    registry.register(other);
    const limited = AgentBuilder.create('support').addTool('lookup_order').build();
    const provider = mockModel(['Hi.']);
    await AgentExecutor.execute({ agent: limited, input: 'hi', provider, toolRegistry: registry });
    expect(provider.calls[0]!.tools?.map((t) => t.name)).toEqual(['lookup_order']);
  });

  it('an approval saved without the rest of its batch: the paused call is decided, the others get not-run', async () => {
    const ran: string[] = [];
    const pay = defineTool({ name: 'pay', description: 'pay', input: z.object({ amount: z.number() }), needsApproval: true, execute: async ({ amount }) => (ran.push(`pay ${amount}`), `paid ${amount}`) });
    const note = defineTool({ name: 'note', description: 'note', input: z.object({ text: z.string() }), execute: async ({ text }) => (ran.push(`note ${text}`), 'noted') });
    const approvalStore = new InMemoryApprovalStore();
    const agent = AgentBuilder.create('payer').addTool(pay).addTool(note).build();
    const provider = mockModel([
      { toolCalls: [{ name: 'note', args: { text: 'a' } }, { name: 'pay', args: { amount: 5 } }, { name: 'note', args: { text: 'b' } }, { name: 'note', args: { text: 'c' } }] },
      'Done.',
    ]);
    const paused = await AgentExecutor.execute({ agent, input: 'pay 5', provider, approvalStore });
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(ran).toEqual(['note a']);
    // As an older version (or a hand-written record) saved it: no paused batch in the snapshot.
    const record = approvalStore.get(paused.approvalId!)!;
    delete record.snapshot.paused;
    approvalStore.save(record);

    const done = await resumeAfterApproval({ agent, provider, approvalStore, approvalId: paused.approvalId!, approved: true });
    expect(done.finishReason).toBe('stop');
    expect(done.text).toBe('Done.');
    expect(ran).toEqual(['note a', 'pay 5']);
    const results = done.messages.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(4);
    const byArgs = (text: string) => JSON.parse(String(results.find((m) => m.toolCallId === provider.calls[1]!.messages.find((x) => x.role === 'assistant')!.toolCalls!.find((c) => c.arguments.includes(`"${text}"`))!.id)!.content));
    expect(byArgs('b')).toMatchObject({ error: 'ToolNotRunError', kind: 'not-run', toolName: 'note' });
    expect(byArgs('c')).toMatchObject({ error: 'ToolNotRunError', kind: 'not-run', toolName: 'note' });
    // The model's next request is valid: every call of the turn has exactly one result.
    const assistant = provider.calls[1]!.messages.find((m) => m.role === 'assistant')!;
    const answeredIds = provider.calls[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId).sort();
    expect(answeredIds).toEqual(assistant.toolCalls!.map((c) => c.id).sort());
  });

  it('an approval saved without its batch, whose ids an earlier step used too: each call of its turn still gets one result', async () => {
    const pay = defineTool({ name: 'pay', description: 'pay', input: z.object({ amount: z.number() }), needsApproval: true, execute: async ({ amount }) => `paid ${amount}` });
    const note = defineTool({ name: 'note', description: 'note', input: z.object({ text: z.string() }), execute: async () => 'noted' });
    const approvalStore = new InMemoryApprovalStore();
    const agent = AgentBuilder.create('payer').addTool(pay).addTool(note).build();
    // Ids numbered per response: the second step's `call_2` is not the first step's.
    const provider = mockModel([
      { toolCalls: [{ name: 'note', id: 'call_2', args: { text: 'first' } }] },
      { toolCalls: [{ name: 'note', id: 'call_0', args: { text: 'a' } }, { name: 'pay', id: 'call_1', args: { amount: 5 } }, { name: 'note', id: 'call_2', args: { text: 'b' } }] },
      'Done.',
    ]);
    const paused = await AgentExecutor.execute({ agent, input: 'pay 5', provider, approvalStore });
    expect(paused.finishReason).toBe('awaiting-approval');
    const record = approvalStore.get(paused.approvalId!)!;
    delete record.snapshot.paused;
    approvalStore.save(record);

    const done = await resumeAfterApproval({ agent, provider, approvalStore, approvalId: paused.approvalId!, approved: true });
    expect(done.finishReason).toBe('stop');
    const request = provider.calls[2]!.messages;
    const turn = request.findLastIndex((m) => m.role === 'assistant');
    expect(request.slice(turn + 1).map((m) => [m.toolCallId, m.isError ? JSON.parse(String(m.content)).kind : m.content])).toEqual([
      ['call_0', 'noted'],
      ['call_1', 'paid 5'],
      ['call_2', 'not-run'],
    ]);
  });
});
