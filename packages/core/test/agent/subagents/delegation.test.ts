import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAgent,
  createDelegateTool,
  defineTool,
  AgentExecutor,
  PropagatingToolError,
  SubagentDepthError,
  type AgentHook,
  type AgentListenerEvent,
  type AgentStreamEvent,
} from '../../../src/index.js';
import { mockModel } from '@lousho/testing';

const task = (subagent: string, prompt: string, id = 'call_task') => ({ name: 'task', id, args: { subagent, prompt } });

function lookupTool(log: string[] = []) {
  return defineTool({
    name: 'lookup',
    description: 'Looks a topic up',
    input: z.object({ topic: z.string() }),
    execute: async ({ topic }) => {
      log.push(topic);
      return { facts: [`${topic} is old`] };
    },
  });
}

describe('sub-agents: the task tool', () => {
  it('gives the lead one task tool and a prompt listing; the child runs on the task prompt alone and its answer is the result', async () => {
    const childModel = mockModel([{ toolCalls: [{ name: 'lookup', id: 'c1', args: { topic: 'tea' } }] }, 'Tea comes from China.']);
    const researcher = createAgent({ name: 'researcher', description: 'Researches a topic in depth.', instructions: 'You research.', provider: childModel, tools: [lookupTool()] });
    const writer = createAgent({ description: 'Writes short copy.', provider: mockModel(['unused']) });
    const lead = mockModel([{ toolCalls: [task('researcher', 'Research tea')] }, 'Here is what I found.']);
    const agent = createAgent({ instructions: 'You lead.', provider: lead, subagents: { researcher, writer } });

    const result = await agent.send('Tell me about tea, from a long earlier chat');
    expect(result.finishReason).toBe('stop');
    expect(result.text).toBe('Here is what I found.');

    const first = lead.calls[0]!;
    expect(first.tools?.map((t) => t.name)).toEqual(['task']);
    expect(first.tools?.[0]?.parameters).toMatchObject({ properties: { subagent: { enum: ['researcher', 'writer'] } } });
    expect(first.system).toContain('You lead.');
    expect(first.system).toContain('- researcher: Researches a topic in depth.');
    expect(first.system).toContain('- writer: Writes short copy.');

    // The child sees its own instructions and only the task prompt.
    expect(childModel.calls[0]!.system).toBe('You research.');
    expect(childModel.calls[0]!.messages).toEqual([{ role: 'user', content: 'Research tea' }]);
    expect(childModel.calls[0]!.tools?.map((t) => t.name)).toEqual(['lookup']);

    const toolMessage = lead.calls[1]!.messages.find((m) => m.role === 'tool');
    expect(toolMessage).toMatchObject({ toolCallId: 'call_task', content: 'Tea comes from China.' });
    expect(result.toolCalls.map((c) => c.toolName)).toEqual(['task']);
  });

  it('answers an unknown sub-agent with a validation error that lists the names', async () => {
    const researcher = createAgent({ description: 'Researches.', provider: mockModel([]) });
    const lead = mockModel([{ toolCalls: [task('poet', 'Write a poem')] }, 'Sorry.']);
    await createAgent({ provider: lead, subagents: { researcher } }).send('x');
    const message = lead.calls[1]!.messages.find((m) => m.role === 'tool')!;
    expect(message.isError).toBe(true);
    const error = JSON.parse(message.content as string);
    expect(error.kind).toBe('validation');
    expect(error.message).toContain("Unknown sub-agent 'poet'. Available sub-agents: researcher.");
  });

  it("returns the child's object when it has an output schema", async () => {
    const child = createAgent({ description: 'Scores.', provider: mockModel(['{"score": 7}']), output: z.object({ score: z.number() }) });
    const lead = mockModel([{ toolCalls: [task('scorer', 'Score it')] }, 'done']);
    await createAgent({ provider: lead, subagents: { scorer: child } }).send('x');
    expect(lead.calls[1]!.messages.find((m) => m.role === 'tool')!.content).toBe('{"score":7}');
  });

  it('refuses sub-agents that are not createAgent() agents or have no description', () => {
    const noDescription = createAgent({ provider: mockModel([]) });
    expect(() => createAgent({ provider: mockModel([]), subagents: { a: noDescription } })).toThrow(/has no description/);
    expect(() => createAgent({ provider: mockModel([]), subagents: { a: { description: 'x' } as never } })).toThrow(/not an agent made by createAgent/);
    expect(() => createAgent({ provider: mockModel([]), maxSubagentDepth: -1 })).toThrow(/maxSubagentDepth/);
  });

  it('takes a catalog: list(ctx) per run, resolve(name, ctx) for the name the model picked', async () => {
    const seen: unknown[] = [];
    const child = createAgent({ description: 'x', provider: mockModel(['From the catalog.']) });
    const lead = mockModel([{ toolCalls: [task('support', 'Help')] }, 'ok']);
    const agent = createAgent({
      provider: lead,
      subagents: {
        list: (ctx) => {
          seen.push(ctx.metadata);
          return [{ name: 'support', description: 'Answers support questions.' }];
        },
        resolve: async (name) => (name === 'support' ? child : undefined),
      },
    });
    await agent.send('x', { metadata: { tenant: 'acme' } });
    expect(seen).toEqual([{ tenant: 'acme' }]);
    expect(lead.calls[0]!.system).toContain('- support: Answers support questions.');
    expect(lead.calls[1]!.messages.find((m) => m.role === 'tool')!.content).toBe('From the catalog.');
  });

  it('fails the run with LOUSHO_CONFIG_RESOLVER_FAILED when a catalog lists badly', async () => {
    const agent = createAgent({ provider: mockModel(['x']), subagents: { list: () => [{ name: 'a' }] as never, resolve: () => undefined } });
    await expect(agent.send('x')).rejects.toMatchObject({ code: 'LOUSHO_CONFIG_RESOLVER_FAILED', field: 'subagents' });
  });

  it('resolves a dynamic sub-agent with the task prompt as input', async () => {
    const inputs: unknown[] = [];
    const child = createAgent({
      description: 'Dynamic.',
      provider: mockModel(['ok']),
      instructions: ({ input }) => {
        inputs.push(input);
        return 'dyn';
      },
    });
    await createAgent({ provider: mockModel([{ toolCalls: [task('dyn', 'The task')] }, 'done']), subagents: { dyn: child } }).send('x');
    expect(inputs).toEqual(['The task']);
  });

  it('works from AgentExecutor.execute({ subagents }) too', async () => {
    const child = createAgent({ description: 'Child.', provider: mockModel(['child answer']) });
    const provider = mockModel([{ toolCalls: [task('child', 'go')] }, 'lead answer']);
    const result = await AgentExecutor.execute({ agent: { name: 'lead', instructions: 'Lead.' }, input: 'x', provider, subagents: { child } });
    expect(result.text).toBe('lead answer');
    expect(provider.calls[0]!.system).toContain('- child: Child.');
    expect(provider.calls[1]!.messages.find((m) => m.role === 'tool')!.content).toBe('child answer');
  });
});

describe('sub-agents: inheritance', () => {
  it('passes hooks with ctx.subagent, permission rules, and listeners with event.subagent', async () => {
    const seen: { tool: string; subagent: unknown }[] = [];
    const hook: AgentHook = {
      name: 'audit',
      preToolCall(ctx) {
        seen.push({ tool: ctx.toolName, subagent: ctx.subagent });
        return undefined;
      },
    };
    const listened: AgentListenerEvent[] = [];
    const secret = defineTool({ name: 'secret', description: 's', input: z.object({}), execute: () => 'leaked' });
    const child = createAgent({
      description: 'Child.',
      provider: mockModel([{ toolCalls: [{ name: 'lookup', id: 'c1', args: { topic: 'a' } }, { name: 'secret', id: 'c2', args: {} }] }, 'child done']),
      tools: [lookupTool(), secret],
    });
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [task('child', 'go', 't1')] }, 'lead done']),
      subagents: { child },
      hooks: [hook],
      permissions: [{ tool: 'secret', decision: 'deny', reason: 'not here' }],
      onEvent: (e) => listened.push(e),
    });
    const result = await agent.send('x');
    expect(result.text).toBe('lead done');
    const ref = { name: 'child', depth: 1, toolCallId: 't1' };
    expect(seen).toEqual([
      { tool: 'task', subagent: undefined },
      { tool: 'lookup', subagent: ref },
      { tool: 'secret', subagent: ref },
    ]);
    const childCalls = listened.filter((e) => e.subagent);
    expect(new Set(childCalls.map((e) => e.type))).toEqual(new Set(['text-complete', 'tool-call', 'tool-result', 'finish']));
    expect(childCalls.every((e) => JSON.stringify(e.subagent) === JSON.stringify(ref))).toBe(true);
    const denied = listened.find((e) => e.type === 'tool-result' && e.toolName === 'secret') as Extract<AgentListenerEvent, { type: 'tool-result' }>;
    expect(denied.isError).toBe(true);
    expect(denied.result).toMatchObject({ kind: 'denied' });
  });

  it('attributes every child stream event, interleaved across parallel children', async () => {
    const a = createAgent({ description: 'A.', provider: mockModel(['alpha answer'], { delayMs: 3 }) });
    const b = createAgent({ description: 'B.', provider: mockModel(['beta answer'], { delayMs: 2 }) });
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [task('a', 'one', 'ta'), task('b', 'two', 'tb')] }, 'both done']),
      subagents: { a, b },
      toolConcurrency: 2,
    });
    const events: AgentStreamEvent[] = [];
    for await (const e of agent.stream('x')) events.push(e);
    const childEvents = events.filter((e) => e.subagent);
    const byChild = (id: string) => childEvents.filter((e) => e.subagent!.toolCallId === id);
    const textOf = (id: string) => byChild(id).flatMap((e) => (e.type === 'text.delta' ? [e.delta] : [])).join('');
    expect(textOf('ta')).toBe('alpha answer');
    expect(textOf('tb')).toBe('beta answer');
    expect(byChild('ta').every((e) => e.subagent!.name === 'a' && e.subagent!.depth === 1)).toBe(true);
    // Interleaved: events of b come between events of a.
    const firstB = events.findIndex((e) => e.subagent?.toolCallId === 'tb');
    const lastA = events.findLastIndex((e) => e.subagent?.toolCallId === 'ta');
    expect(firstB).toBeLessThan(lastA);
    // No child event looks like the lead's own: the lead's text is only its answer.
    expect(events.filter((e) => e.type === 'text.delta' && !e.subagent).map((e) => (e as { delta: string }).delta).join('')).toBe('both done');
    expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
  });

  it('runs parallel task calls concurrently under toolConcurrency', async () => {
    let running = 0;
    let peak = 0;
    const slow = defineTool({
      name: 'slow',
      description: 's',
      input: z.object({}),
      execute: async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
        return 'ok';
      },
    });
    const make = (n: string) => createAgent({ description: n, provider: mockModel([{ toolCalls: [{ name: 'slow', id: `s_${n}`, args: {} }] }, `${n} done`]), tools: [slow] });
    const run = async (toolConcurrency: number) => {
      peak = 0;
      const agent = createAgent({
        provider: mockModel([{ toolCalls: [task('a', '1', 'ta'), task('b', '2', 'tb'), task('c', '3', 'tc')] }, 'ok']),
        subagents: { a: make('a'), b: make('b'), c: make('c') },
        toolConcurrency,
      });
      const result = await agent.send('x');
      expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['a done', 'b done', 'c done']);
      return peak;
    };
    expect(await run(3)).toBe(3);
    expect(await run(1)).toBe(1);
  });

  it('stops the child with the lead: aborted, every call answered', async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const waits = defineTool({
      name: 'waits',
      description: 'w',
      input: z.object({}),
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          started.push('waits');
          ctx.abortSignal?.addEventListener('abort', () => reject(ctx.abortSignal!.reason), { once: true });
          controller.abort();
        }),
    });
    const child = createAgent({ description: 'c', provider: mockModel([{ toolCalls: [{ name: 'waits', id: 'w1', args: {} }] }, 'never']), tools: [waits] });
    const listened: AgentListenerEvent[] = [];
    const agent = createAgent({ provider: mockModel([{ toolCalls: [task('child', 'go', 't1')] }, 'never']), subagents: { child }, onEvent: (e) => listened.push(e) });
    const result = await agent.send('x', { signal: controller.signal });
    expect(started).toEqual(['waits']);
    expect(result.finishReason).toBe('aborted');
    const leadTool = result.messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(leadTool.content as string)).toMatchObject({ kind: 'cancelled', toolName: 'task' });
    const childResult = listened.find((e) => e.type === 'tool-result' && e.subagent) as Extract<AgentListenerEvent, { type: 'tool-result' }>;
    expect(childResult.result).toMatchObject({ kind: 'cancelled' });
    expect(listened.find((e) => e.type === 'finish' && e.subagent)).toMatchObject({ finishReason: 'aborted' });
  });

  it("adds the child's usage to the totals and byModel, and apart as usage.delegated", async () => {
    const usage = (i: number, o: number) => ({ promptTokens: i, completionTokens: o });
    const child = createAgent({ description: 'c', provider: mockModel([{ text: 'child', usage: usage(100, 10) }], { model: 'child-model' }) });
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [task('child', 'go')], usage: usage(50, 5) }, { text: 'lead', usage: usage(60, 6) }], { model: 'lead-model' }),
      subagents: { child },
    });
    const result = await agent.send('x');
    expect(result.usage).toMatchObject({ inputTokens: 210, outputTokens: 21, modelCalls: 3 });
    expect(result.usage.byModel['child-model']).toMatchObject({ inputTokens: 100, outputTokens: 10, calls: 1 });
    expect(result.usage.byModel['lead-model']).toMatchObject({ inputTokens: 110, outputTokens: 11, calls: 2 });
    expect(result.usage.delegated).toMatchObject({ inputTokens: 100, outputTokens: 10, totalTokens: 110, modelCalls: 1, estimated: false, runs: 1 });
    expect(result.stepUsage.map((s) => s.step)).toEqual([1, 2]);
  });
});

describe('sub-agents: depth', () => {
  const nested = (maxSubagentDepth?: number) => {
    const grandchild = createAgent({ description: 'gc', provider: mockModel(['grandchild answer']) });
    const child = createAgent({ description: 'c', provider: mockModel([{ toolCalls: [task('gc', 'deeper', 'g1')] }, 'child answer']), subagents: { gc: grandchild } });
    return createAgent({ provider: mockModel([{ toolCalls: [task('child', 'go', 't1')] }, 'lead answer']), subagents: { child }, ...(maxSubagentDepth !== undefined ? { maxSubagentDepth } : {}) });
  };

  it('refuses a second level by default: the depth guard rejects the run', async () => {
    const error = await nested().send('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubagentDepthError);
    // A propagating tool error: it rejects the run instead of becoming a result the model sees.
    expect(error).toBeInstanceOf(PropagatingToolError);
    expect(error).toMatchObject({ code: 'LOUSHO_SUBAGENT_DEPTH', depth: 2, maxDepth: 1 });
  });

  it('allows it with maxSubagentDepth: 2, events carrying the innermost sub-agent', async () => {
    const events: AgentStreamEvent[] = [];
    const run = nested(2).stream('x');
    for await (const e of run) events.push(e);
    expect((await run.result).text).toBe('lead answer');
    const deep = events.filter((e) => e.subagent?.depth === 2);
    expect(deep.length).toBeGreaterThan(0);
    expect(deep[0]!.subagent).toEqual({ name: 'gc', depth: 2, toolCallId: 'g1' });
    expect(deep.flatMap((e) => (e.type === 'text.delta' ? [e.delta] : [])).join('')).toBe('grandchild answer');
  });
});

describe('createDelegateTool', () => {
  it('places the same delegation as a tool of your own, with { prompt } as input', async () => {
    const researcher = createAgent({ name: 'researcher', description: 'Researches.', provider: mockModel(['researched']) });
    const research = createDelegateTool(researcher, { name: 'research', description: 'Research something in depth' });
    const provider = mockModel([{ toolCalls: [{ name: 'research', id: 'r1', args: { prompt: 'Look into it' } }] }, 'done']);
    const events: AgentStreamEvent[] = [];
    const run = createAgent({ provider, tools: [research] }).stream('x');
    for await (const e of run) events.push(e);
    expect(provider.calls[0]!.tools?.[0]).toMatchObject({ name: 'research', description: 'Research something in depth' });
    expect(provider.calls[1]!.messages.find((m) => m.role === 'tool')!.content).toBe('researched');
    expect(events.find((e) => e.subagent)?.subagent).toEqual({ name: 'researcher', depth: 1, toolCallId: 'r1' });
  });

  it('runs on its own when called outside a run', async () => {
    const tool = createDelegateTool(createAgent({ description: 'd', provider: mockModel(['alone']) }), { name: 'helper' });
    expect(await tool.execute!({ prompt: 'hi' }, { toolCallId: 'x', messages: [] })).toBe('alone');
  });
});
