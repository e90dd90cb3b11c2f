import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, HookRegistry, type AgentHook, type AgentStreamEvent, type PermissionDecisionRecord } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

function searchTool() {
  const ran: unknown[] = [];
  const tool = defineTool({
    name: 'search',
    description: 'Search',
    input: z.object({ query: z.string(), limit: z.number().int().max(50).default(5) }),
    execute: async (args) => {
      ran.push(args);
      return `results for ${args.query} (${args.limit})`;
    },
  });
  return { tool, ran };
}

const toolResults = (messages: { role: string; content: unknown; isError?: boolean; metadata?: Record<string, unknown> }[]) =>
  messages.filter((m) => m.role === 'tool');

describe('tool-call hooks', () => {
  it('a pre-hook deny stops the call with a denied error result and records the decision', async () => {
    const { tool, ran } = searchTool();
    const decisions: PermissionDecisionRecord[] = [];
    const guard: AgentHook = { name: 'guard', preToolCall: () => ({ deny: 'Use the docs instead' }) };
    const events: AgentStreamEvent[] = [];
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'search', args: { query: 'x' } }] }, 'ok']), tools: [tool], hooks: [guard], onPermissionDecision: (d) => decisions.push(d) });
    const run = agent.stream('go');
    for await (const e of run) events.push(e);
    const result = await run.result;
    expect(ran).toEqual([]);
    const [msg] = toolResults(result.messages);
    expect(JSON.parse(msg!.content as string)).toMatchObject({ error: 'ToolDeniedError', kind: 'denied', reason: 'Use the docs instead', toolName: 'search' });
    expect(events.some((e) => e.type === 'tool.error')).toBe(true);
    expect(decisions).toEqual([expect.objectContaining({ decision: 'deny', hook: 'guard', reason: 'Use the docs instead' })]);
  });

  it('a pre-hook result replaces the call; tool.done and the transcript carry replacedByHook', async () => {
    const { tool, ran } = searchTool();
    const cache: AgentHook = { name: 'cache', preToolCall: () => ({ result: 'cached answer' }) };
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'search', args: { query: 'x' } }] }, 'ok']), tools: [tool], hooks: [cache] });
    const events: AgentStreamEvent[] = [];
    const run = agent.stream('go');
    for await (const e of run) events.push(e);
    const result = await run.result;
    expect(ran).toEqual([]);
    expect(events.find((e) => e.type === 'tool.done')).toMatchObject({ result: 'cached answer', replacedByHook: 'cache' });
    const [msg] = toolResults(result.messages);
    expect(msg).toMatchObject({ content: 'cached answer', metadata: { replacedByHook: 'cache' } });
  });

  it('pre-hook inputs chain, are re-validated, and a mismatch is a validation error naming the hook', async () => {
    const { tool, ran } = searchTool();
    const seen: unknown[] = [];
    const first: AgentHook = { name: 'first', preToolCall: (ctx) => ({ input: { ...ctx.args, limit: 10 } }) };
    const second: AgentHook = {
      name: 'second',
      preToolCall: (ctx) => {
        seen.push(structuredClone(ctx.args));
        return undefined;
      },
    };
    await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'search', args: { query: 'x' } }] }, 'ok']), tools: [tool], hooks: [first, second] }).send('go');
    expect(seen).toEqual([{ query: 'x', limit: 10 }]);
    expect(ran).toEqual([{ query: 'x', limit: 10 }]);

    const bad: AgentHook = { name: 'bad-hook', preToolCall: (ctx) => ({ input: { ...ctx.args, limit: 999 } }) };
    const { tool: tool2, ran: ran2 } = searchTool();
    const result = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'search', args: { query: 'x' } }] }, 'ok']), tools: [tool2], hooks: [bad] }).send('go');
    expect(ran2).toEqual([]);
    const body = JSON.parse(toolResults(result.messages)[0]!.content as string);
    expect(body).toMatchObject({ kind: 'validation', toolName: 'search' });
    expect(body.message).toContain('bad-hook');
  });

  it('the first deny or result skips later pre-hooks; post-hooks chain result replacements', async () => {
    const { tool } = searchTool();
    const calls: string[] = [];
    const hooks = new HookRegistry();
    hooks.register({ name: 'a', preToolCall: () => void calls.push('a') });
    hooks.register({ name: 'b', preToolCall: () => ({ result: 'from b' }) });
    hooks.register({ name: 'c', preToolCall: () => void calls.push('c') });
    hooks.register({ name: 'trim', postToolCall: (_ctx, r) => (typeof r.result === 'string' ? { result: r.result.slice(0, 4) } : undefined) });
    hooks.register({ name: 'upper', postToolCall: (_ctx, r) => ({ result: String(r.result).toUpperCase() }) });
    const result = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'search', args: { query: 'x' } }] }, 'ok']), tools: [tool], hooks: hooks.list() }).send('go');
    expect(calls).toEqual(['a']);
    expect(toolResults(result.messages)[0]!.content).toBe('FROM');
  });

  it('hooks run before needsApproval: the pending approval shows the hook-produced input', async () => {
    const ran: unknown[] = [];
    const risky = defineTool({
      name: 'risky',
      description: 'risky',
      input: z.object({ amount: z.number() }),
      needsApproval: ({ amount }) => amount > 100,
      execute: async (args) => {
        ran.push(args);
        return 'done';
      },
    });
    const double: AgentHook = { name: 'double', preToolCall: (ctx) => ({ input: { amount: ctx.args.amount * 2 } }) };
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'risky', args: { amount: 60 } }] }, 'ok']), tools: [risky], hooks: [double] });
    const paused = await agent.send('go');
    expect(paused.pendingApproval?.args).toEqual({ amount: 120 });
    await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    // On resume the pre-hook runs again; its input equals the approved one, so the call runs with it.
    expect(ran).toEqual([{ amount: 120 }]);
  });

  it('on resume, a pre-hook input that differs from the approved input is refused instead of running', async () => {
    const ran: unknown[] = [];
    let n = 0;
    const risky = defineTool({ name: 'risky', description: 'risky', input: z.object({ amount: z.number() }), needsApproval: true, execute: async (a) => void ran.push(a) });
    const drift: AgentHook = { name: 'drift', preToolCall: (ctx) => ({ input: { amount: ctx.args.amount + n++ } }) };
    const provider = mockModel([{ toolCalls: [{ name: 'risky', args: { amount: 1 } }] }, 'ok']);
    const agent = createAgent({ provider, tools: [risky], hooks: [drift] });
    const paused = await agent.send('go');
    await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(ran).toEqual([]);
    const body = JSON.parse(provider.lastCall!.messages.find((m) => m.role === 'tool')!.content as string);
    expect(body).toMatchObject({ kind: 'validation' });
    expect(body.message).toContain('drift');
  });

  it('a hook that throws rejects the run', async () => {
    const { tool } = searchTool();
    const explode: AgentHook = {
      name: 'explode',
      preToolCall: () => {
        throw new Error('hook failed');
      },
    };
    await expect(createAgent({ provider: mockModel([{ toolCalls: [{ name: 'search', args: { query: 'x' } }] }]), tools: [tool], hooks: [explode] }).send('go')).rejects.toThrow('hook failed');
  });

  it('validation failures skip pre-hooks but post-hooks see the error result', async () => {
    const { tool } = searchTool();
    const seen: string[] = [];
    const hook: AgentHook = {
      name: 'watch',
      preToolCall: () => void seen.push('pre'),
      postToolCall: (_c, r) => void seen.push(`post:${r.isError}`),
    };
    await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'search', args: { query: 1 } }] }, 'ok']), tools: [tool], hooks: [hook] }).send('go');
    expect(seen).toEqual(['post:true']);
  });
});

describe('permission rules', () => {
  it('deny refuses a tool with its reason (kind denied); ask forces a pause; first match wins', async () => {
    const { tool, ran } = searchTool();
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'search', args: { query: 'x' } }] }, 'ok']),
      tools: [tool],
      permissions: [
        { tool: 'search', decision: 'deny', reason: 'search is disabled' },
        { tool: '*', decision: 'allow' },
      ],
    });
    const result = await agent.send('go');
    expect(ran).toEqual([]);
    expect(JSON.parse(result.messages.find((m) => m.role === 'tool')!.content as string)).toMatchObject({ kind: 'denied', reason: 'search is disabled' });

    const { tool: t2 } = searchTool();
    const asking = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'search', args: { query: 'x' } }] }, 'ok']), tools: [t2], permissions: [{ tool: /^sea/, decision: 'ask' }] });
    expect((await asking.send('go')).finishReason).toBe('awaiting-approval');
  });
});
