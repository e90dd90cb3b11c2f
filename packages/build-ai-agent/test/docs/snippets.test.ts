import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, getModelInfo } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';

// Every snippet of the reference docs that this package implements lives verbatim in ./snippets
// (only a provider line is added where the docs leave `provider` to the reader). Importing a
// snippet runs it; the assertions check it did what its comments say.

describe('documented snippets run unchanged', () => {
  it('lousho-tools.md: defineTool with inferred types, used by createAgent', async () => {
    const m = await import('./snippets/tools-define.js');
    expectTypeOf<import('./snippets/tools-define.js').WeatherArgs>().toEqualTypeOf<{ location: string; units: 'celsius' | 'fahrenheit' }>();
    expectTypeOf<import('./snippets/tools-define.js').WeatherResult>().toEqualTypeOf<{ temperature: number; conditions: string }>();
    expect(m.weather.inputSchema).toBe(m.weather.input);
    const result = await m.agent.send('Weather in Paris?');
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'weather', result: { temperature: 72, conditions: 'sunny' } });
    expect(result.text).toBe('It is sunny.');
  });

  it('lousho-tools.md: ToolRegistry', async () => {
    const { tools } = await import('./snippets/tools-registry.js');
    expect(tools.names().sort()).toEqual(['current_date', 'lookup_order']);
    expect(() => tools.register(tools.get('lookup_order') as never)).toThrow(/lookup_order/);
  });

  it('Cancellation: a signal that never fires leaves the finish reason stop', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { result } = await import('./snippets/cancellation-signal.js');
    expect(result.finishReason).toBe('stop');
    expect(log).toHaveBeenCalledWith('stop');
    log.mockRestore();
    const timed = await import('./snippets/cancellation-timeout.js');
    expect(timed.result.finishReason).toBe('stop');
  });

  it('Skills, Memory, Context compaction, Declarative specs: the documented forms run, every documented name exists', async () => {
    const root = await import('@lousho/build-ai-agent');
    for (const name of ['defineSkill', 'loadSkills', 'defineMemory', 'inMemoryMemory', 'fileMemory', 'createCompactionHook', 'twoPhaseStrategy', 'summarizeStrategy', 'pinMessage', 'compactMessages', 'loadSpec', 'agentSpecSchema', 'specToAgent']) {
      expect(typeof (root as Record<string, unknown>)[name], name).not.toBe('undefined');
    }
    const { agent, model, withDefaults } = await import('./snippets/context-sections.js');
    const result = await agent.send('How do refunds work?', { sessionId: 's1' });
    expect(result.text).toBe('Refunds take 5 days.');
    expect(model.calls[0]!.system).toContain('refunds: How refunds are handled');
    expect(model.calls[0]!.system).toContain('tone: How to write replies');
    expect(model.calls[0]!.tools!.map((t) => t.name).sort()).toEqual(['load_skill', 'recall_customer', 'remember_customer']);
    expect((await withDefaults.send('hi')).text).toBe('ok');
  });

  it('Finish reasons: maxSteps', async () => {
    const { result } = await import('./snippets/finish-reasons.js');
    expect(result.finishReason).toBe('stop');
    expect(result.steps).toBe(1);
  });

  it('Parallel tool calls: toolConcurrency', async () => {
    const { agent } = await import('./snippets/parallel-tool-calls.js');
    const result = await agent.send('Weather in Oslo?');
    expect(result.finishReason).toBe('stop');
  });

  it('Tools: needsApproval predicate typed from input', async () => {
    const { sendEmail } = await import('./snippets/tools-send-email.js');
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'send_email', args: { to: 'x@other.com', subject: 'Hi' } }] }, 'sent']), tools: [sendEmail] });
    const paused = await agent.send('mail');
    expect(paused.finishReason).toBe('awaiting-approval');
    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(done.toolCalls.at(-1)?.result).toEqual({ messageId: 'x@other.com:Hi' });
  });

  it('Todo tools', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { todos } = await import('./snippets/todo-tools.js');
    log.mockRestore();
    expect(await todos.getTodos()).toEqual([
      { id: 'todo_1', content: 'Rename files to .mjs', status: 'completed' },
      { id: 'todo_2', content: 'Update imports', status: 'completed' },
    ]);
  });

  it('Models, tokens and cost', async () => {
    const { used, info, usd } = await import('./snippets/models-tokens-cost.js');
    expect(used).toBeGreaterThan(0);
    expect(info?.id).toBe('gpt-4o-mini');
    expect(usd).toBeCloseTo((used * 0.2 + 500 * 0.6) / 1e6, 12);
  });

  it('Usage and cost of a run', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { result } = await import('./snippets/usage-of-a-run.js');
    const printed = log.mock.calls.map((c) => String(c[0]));
    log.mockRestore();
    expect(result.usage).toMatchObject({ inputTokens: 1200, outputTokens: 300, estimated: false, modelCalls: 1 });
    expect(result.usage.byModel['gpt-4o-mini']).toMatchObject({ inputTokens: 1200, outputTokens: 300, calls: 1 });
    expect(result.usage.costUsd).toEqual(expect.any(Number));
    expect(printed[0]).toMatch(/^1,200 in \/ 300 out tokens · \$[\d.]+ \(1 model call\)$/);
    await import('./snippets/usage-register-model.js');
    expect(getModelInfo('ft:gpt-4o-mini:acme')?.inputCostPerMTok).toBe(0.3);
  });

  it('Dynamic config', async () => {
    const { agent } = await import('./snippets/dynamic-config.js');
    expect(agent).toBeDefined();
  });

  it('Hook outcomes: the guard denies shell, rewrites search input and trims results', async () => {
    const { guard } = await import('./snippets/hook-outcomes.js');
    const ran: unknown[] = [];
    const shell = defineTool({ name: 'shell', description: 'shell', input: z.object({}), execute: async () => 'ran' });
    const search = defineTool({ name: 'search', description: 'search', input: z.object({ q: z.string(), limit: z.number().optional() }), execute: async (a) => (ran.push(a), 'x'.repeat(3000)) });
    const provider = mockModel([{ toolCalls: [{ name: 'shell', args: {} }, { name: 'search', args: { q: 'a' } }] }, 'ok']);
    const result = await createAgent({ provider, instructions: 'You research things.', hooks: [guard], tools: [shell, search] }).send('go');
    const [shellMsg, searchMsg] = result.messages.filter((m) => m.role === 'tool');
    expect(JSON.parse(shellMsg!.content as string)).toMatchObject({ kind: 'denied', reason: 'Use the workspace tools instead' });
    expect(ran).toEqual([{ q: 'a', limit: 10 }]);
    expect((searchMsg!.content as string).length).toBe(2000);
  });

  it('MCP: loadMcpTools(mcpClient, name) from the /mcp entry', async () => {
    const { tools, mcpClient } = await import('./snippets/mcp-load-tools.js');
    try {
      expect(Object.keys(tools)).toHaveLength(99);
      expect(tools['my-server__plain_40']).toMatchObject({ name: 'my-server__plain_40', description: 'Plain tool 40' });
      // The tools drop into createAgent; arguments are checked before the server is called.
      const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'my-server__plain_40', args: { n: 41 } }, { name: 'my-server__plain_40', args: { n: 40 } }] }, 'ok']), tools });
      const [tooBig, fine] = (await agent.send('go')).toolCalls;
      expect(tooBig).toMatchObject({ isError: true, error: { kind: 'validation' } });
      expect(fine?.result).toEqual({ name: 'plain_40', arguments: { n: 40 } });
    } finally {
      await mcpClient.close();
    }
  }, 30_000);

  it('MCP: skipped tools reach onSkip and the logger; the rest load', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { tools, skipped, mcpClient } = await import('./snippets/mcp-skipped-tools.js');
    const warnings = warn.mock.calls.map((call) => String(call[0]));
    warn.mockRestore();
    await mcpClient.close();
    expect(skipped).toEqual([expect.objectContaining({ name: 'not_an_object', reason: expect.any(String) })]);
    expect(warnings).toEqual([expect.stringMatching(/^MCP server 'my-server': tool 'not_an_object' was skipped: /)]);
    expect(Object.keys(tools)).toHaveLength(99);
  }, 30_000);

  it('HookRegistry from the /hooks entry', async () => {
    const { hooks } = await import('./snippets/hooks-registry.js');
    expect(hooks.list().map((h) => h.name)).toEqual(['redact-pii']);
  });
});

describe('docs/flows.md runs unchanged', () => {
  const doc = readFileSync(new URL('../../../../docs/flows.md', import.meta.url), 'utf8');
  const body = (file: string) =>
    readFileSync(new URL(`./snippets/${file}`, import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('// docs/flows.md') && !line.startsWith('export {'))
      .join('\n')
      .trim();

  it('the complete example: classify, branch, draft, approve, send', async () => {
    expect(doc).toContain(body('flows-example.ts'));
    const m = await import('./snippets/flows-example.js');
    expect(m.paused.finishReason).toBe('awaiting-approval');
    expect(m.paused.path).toEqual(['classify', 'route', 'refund']);
    expect(m.done.finishReason).toBe('stop');
    expect(m.done.outputs.send).toEqual({ to: 'ada@example.com', text: 'We have refunded your order.' });
    expect(m.done.usage.modelCalls).toBe(2);
    expect(m.outbox).toEqual(['We have refunded your order.']);
    expectTypeOf(m.done.outputs.send).toEqualTypeOf<{ to: string; text: string } | undefined>();
  });

  it('Flow expressions', async () => {
    expect(doc).toContain(body('flows-expressions.ts'));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await import('./snippets/flows-expressions.js');
    expect(log).toHaveBeenCalledWith(5);
    log.mockRestore();
  });
});
