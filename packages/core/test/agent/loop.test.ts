import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, PropagatingToolError, type AgentStreamEvent, type ToolExecutionContext } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

const weather = defineTool({
  name: 'weather',
  description: 'Get the weather',
  input: z.object({ city: z.string(), units: z.enum(['c', 'f']).default('c') }),
  execute: async ({ city, units }) => ({ city, units, temp: 21 }),
});

async function collect(run: AsyncIterable<AgentStreamEvent>): Promise<AgentStreamEvent[]> {
  const events: AgentStreamEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

describe('the agent loop', () => {
  it('answers with text and reports the documented result fields', async () => {
    const provider = mockModel(['Hello there!']);
    const agent = createAgent({ provider, instructions: 'Be nice.' });
    const result = await agent.send('Hi');
    expect(result.text).toBe('Hello there!');
    expect(result.finishReason).toBe('stop');
    expect(result.steps).toBe(1);
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(result.usage.modelCalls).toBe(1);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(provider.lastCall?.system).toBe('Be nice.');
    expect(provider.lastCall?.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('runs a tool with parsed arguments (defaults applied) and continues to the final answer', async () => {
    const provider = mockModel([{ toolCalls: [{ name: 'weather', args: { city: 'Paris' } }] }, 'It is 21 degrees in Paris.']);
    const agent = createAgent({ provider, tools: [weather] });
    const result = await agent.send('Weather in Paris?');
    expect(result.text).toBe('It is 21 degrees in Paris.');
    expect(result.steps).toBe(2);
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'weather', args: { city: 'Paris', units: 'c' }, result: { city: 'Paris', units: 'c', temp: 21 }, isError: false });
    const toolMessage = result.messages[2]!;
    expect(toolMessage).toMatchObject({ role: 'tool', toolName: 'weather' });
    expect(JSON.parse(toolMessage.content as string)).toEqual({ city: 'Paris', units: 'c', temp: 21 });
    // The second model call sees the tool result.
    expect(provider.calls[1]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(provider.calls[0]!.tools?.[0]).toMatchObject({ name: 'weather', description: 'Get the weather' });
  });

  it('gives execute a ToolExecutionContext with the call id, the visible transcript and the signal', async () => {
    let seen: ToolExecutionContext | undefined;
    let seenMessages: readonly unknown[] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Looks at its context',
      input: z.object({}),
      execute: async (_args, ctx) => {
        seen = ctx;
        seenMessages = ctx.messages;
        return 'ok';
      },
    });
    const controller = new AbortController();
    const agent = createAgent({ provider: mockModel(['First answer', { toolCalls: [{ name: 'probe', id: 'call_probe' }] }, 'done']), instructions: 'SYSTEM', tools: [probe] });
    const session = agent.session('s1');
    await session.send('one');
    await session.send('two', { signal: controller.signal });
    expect(seen?.toolCallId).toBe('call_probe');
    expect(seen?.abortSignal).toBeInstanceOf(AbortSignal);
    // No system prompt, and not the assistant turn that made the call.
    expect(seenMessages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'First answer' },
      { role: 'user', content: 'two' },
    ]);
    expect(Object.isFrozen(seenMessages)).toBe(true);
  });

  it('turns an unknown tool, non-JSON arguments and wrong-shaped arguments into error results and goes on', async () => {
    let executed = 0;
    const counted = defineTool({ name: 'weather', description: 'Weather', input: z.object({ city: z.string() }), execute: async () => ++executed });
    const provider = mockModel([
      {
        toolCalls: [
          { name: 'nope', args: {} },
          { name: 'weather', rawArguments: '{"city": "Par' },
          { name: 'weather', args: { city: 42 } },
        ],
      },
      'recovered',
    ]);
    const agent = createAgent({ provider, tools: [counted] });
    const result = await agent.send('go');
    expect(result.text).toBe('recovered');
    expect(executed).toBe(0);
    const errors = result.messages.filter((m) => m.role === 'tool').map((m) => ({ isError: m.isError, body: JSON.parse(m.content as string) }));
    expect(errors.map((e) => e.isError)).toEqual([true, true, true]);
    expect(errors[0]!.body).toMatchObject({ error: 'ToolNotFoundError', toolName: 'nope', kind: 'not-found' });
    expect(errors[1]!.body).toMatchObject({ error: 'ToolArgumentsValidationError', toolName: 'weather', kind: 'validation' });
    expect(errors[2]!.body).toMatchObject({ error: 'ToolArgumentsValidationError', kind: 'validation' });
    expect(errors[2]!.body.issues[0].path).toBe('city');
  });

  it('reports a thrown error as an execution result without a stack', async () => {
    const failing = defineTool({
      name: 'search',
      description: 'Search',
      input: z.object({ query: z.string() }),
      execute: async () => {
        throw new TypeError('query must not be empty');
      },
    });
    const result = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'search', args: { query: '' } }] }, 'sorry']), tools: [failing] }).send('x');
    const tool = result.messages.find((m) => m.role === 'tool')!;
    expect(tool.isError).toBe(true);
    expect(JSON.parse(tool.content as string)).toEqual({ error: 'TypeError', toolName: 'search', message: 'query must not be empty', kind: 'execution' });
    expect(tool.content).not.toMatch(/at .*\.ts/);
  });

  it("ends with 'max-steps' when the budget runs out while the model still calls tools", async () => {
    const provider = mockModel([{ toolCalls: [{ name: 'weather', args: { city: 'A' } }] }], { whenExhausted: 'repeat-last' });
    const result = await createAgent({ provider, tools: [weather], maxSteps: 3 }).send('loop');
    expect(result.finishReason).toBe('max-steps');
    expect(result.steps).toBe(3);
    expect(provider.calls).toHaveLength(3);
    // Every call of every turn has its result.
    expect(result.messages.filter((m) => m.role === 'tool')).toHaveLength(3);
  });

  it('keeps a natural finish within the budget', async () => {
    const result = await createAgent({ provider: mockModel(['done']), maxSteps: 1 }).send('x');
    expect(result.finishReason).toBe('stop');
  });

  it('rejects when a tool throws a PropagatingToolError, after running siblings settle, and every call has a result', async () => {
    let siblingFinished = false;
    class DepthError extends PropagatingToolError {}
    const slow = defineTool({
      name: 'slow',
      description: 'slow',
      input: z.object({}),
      execute: async () => {
        await new Promise((r) => setTimeout(r, 30));
        siblingFinished = true;
        return 'slow done';
      },
    });
    const boom = defineTool({
      name: 'boom',
      description: 'boom',
      input: z.object({}),
      execute: async () => {
        throw new DepthError('too deep');
      },
    });
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'slow' }, { name: 'boom' }, { name: 'slow' }] }]), tools: [slow, boom] });
    const session = agent.session('p');
    await expect(session.send('go')).rejects.toThrow('too deep');
    expect(siblingFinished).toBe(true);
    const toolMessages = session.messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toHaveLength(3);
  });

  it('numbers stream events per session and keeps them JSON-serializable', async () => {
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }, 'Cold.', 'Again.']), tools: [weather] });
    const session = agent.session('numbered');
    const first = await collect(session.stream('Weather?'));
    const second = await collect(session.stream('Again?'));
    const all = [...first, ...second];
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    for (const event of all) expect(JSON.parse(JSON.stringify(event))).toEqual(event);
    const types = first.map((e) => e.type);
    expect(types[0]).toBe('run.start');
    expect(types[1]).toBe('user.message');
    expect(types).toContain('tool.input.start');
    expect(types).toContain('tool.call');
    expect(types).toContain('tool.done');
    expect(types).toContain('step.done');
    expect(types.at(-1)).toBe('run.done');
    const done = first.at(-1) as Extract<AgentStreamEvent, { type: 'run.done' }>;
    expect(done).toMatchObject({ finishReason: 'stop', text: 'Cold.', steps: 2 });
    expect(first.filter((e) => e.type === 'text.delta').map((e) => (e as { delta: string }).delta).join('')).toBe('Cold.');
  });

  it('emits listener events with the documented names', async () => {
    const seen: string[] = [];
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'weather', args: { city: 'Rome' } }] }, 'Warm.']),
      tools: [weather],
      onEvent: (e) => seen.push(e.type),
    });
    await agent.send('Weather?');
    expect(seen).toEqual(['text-complete', 'tool-call', 'tool-result', 'text-complete', 'finish']);
  });

  it('keeps a multi-turn conversation per session and isolates sessions', async () => {
    const provider = mockModel(['one', 'two', 'other']);
    const agent = createAgent({ provider });
    const a = agent.session('a');
    await a.send('first');
    await a.send('second');
    await agent.send('elsewhere', { sessionId: 'b' });
    expect(provider.calls[1]!.messages.map((m) => m.content)).toEqual(['first', 'one', 'second']);
    expect(provider.calls[2]!.messages.map((m) => m.content)).toEqual(['elsewhere']);
    expect(a.messages).toHaveLength(4);
  });

  it('refuses a second turn on a session while one runs, and accepts it afterwards', async () => {
    const agent = createAgent({ provider: mockModel([{ text: 'slow reply', delayMs: 5 }, 'next']) });
    const s = agent.session('busy');
    const first = s.send('one');
    await expect(s.send('two')).rejects.toMatchObject({ code: 'LOUSHO_SESSION_BUSY' });
    await first;
    await expect(s.send('three')).resolves.toMatchObject({ text: 'next' });
  });

  it('fails the run with an error event when the provider throws, and the session stays usable', async () => {
    const agent = createAgent({ provider: mockModel([new Error('provider down'), 'back']) });
    const s = agent.session('err');
    const events = await collect(s.stream('hi'));
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { message: expect.stringContaining('provider down') } });
    await expect(s.send('again')).resolves.toMatchObject({ text: 'back' });
  });
});
