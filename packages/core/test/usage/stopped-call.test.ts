import { describe, expect, it } from 'vitest';
import { createAgent, formatUsage, type AgentStreamEvent, type LLMProvider, type StreamChunk } from '../../src/index.js';

/**
 * A model that streams a few words, then waits (as a slow real model would) until the request is
 * aborted. It never reports usage, so every count the run has must be an estimate.
 */
function slowModel(words: string[], reasoning?: string): LLMProvider & { calls: number } {
  const provider = {
    name: 'slow',
    defaultModel: 'slow-1',
    calls: 0,
    async *stream(options: { signal?: AbortSignal }): AsyncIterable<StreamChunk> {
      provider.calls++;
      if (reasoning) yield { type: 'reasoning-delta', text: reasoning };
      for (const word of words) yield { type: 'text-delta', text: word };
      await new Promise<void>((_, reject) => {
        const fail = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        if (options.signal?.aborted) fail();
        options.signal?.addEventListener('abort', fail, { once: true });
      });
    },
  };
  return provider;
}

async function stopAfterText(provider: LLMProvider, prompt: string): Promise<{ events: AgentStreamEvent[]; result: Awaited<ReturnType<typeof createAgent>['send']> extends infer R ? R : never }> {
  const agent = createAgent({ provider, instructions: 'Be brief.' });
  const controller = new AbortController();
  const run = agent.stream(prompt, { signal: controller.signal });
  const events: AgentStreamEvent[] = [];
  for await (const event of run) {
    events.push(event);
    if (event.type === 'text.delta' && events.filter((e) => e.type === 'text.delta').length === 3) controller.abort();
  }
  return { events, result: (await run.result) as never };
}

describe('a model call that is stopped while it streams', () => {
  it('is counted in run.done usage, with estimated tokens, and the usage line marks it with ~', async () => {
    const provider = slowModel(['The ', 'weather ', 'in Paris ', 'is mild ', 'today.']);
    const { events, result } = await stopAfterText(provider, 'Tell me about the weather in Paris, please.');
    const done = events.find((e) => e.type === 'run.done');
    expect(done).toMatchObject({ finishReason: 'aborted' });
    const usage = done!.type === 'run.done' ? done!.usage : undefined;
    expect(usage).toMatchObject({ modelCalls: 1, estimated: true });
    // The prompt went out and text came back: both sides cost tokens.
    expect(usage!.inputTokens).toBeGreaterThan(0);
    expect(usage!.outputTokens).toBeGreaterThan(0);
    expect(usage!.totalTokens).toBe(usage!.inputTokens + usage!.outputTokens);
    expect(usage!.byModel['slow-1']).toMatchObject({ calls: 1, inputTokens: usage!.inputTokens, outputTokens: usage!.outputTokens });
    expect(formatUsage(usage!)).toMatch(/^~\d+ in \/ \d+ out tokens.*\(1 model call\)$/);
    // The run's result agrees, with one step usage for the stopped call.
    expect(result.usage).toEqual(usage);
    expect(result.stepUsage).toEqual([expect.objectContaining({ step: 1, model: 'slow-1', estimated: true })]);
    expect(provider.calls).toBe(1);
  });

  it('counts what streamed before the stop as output: more text, more output tokens', async () => {
    const short = await stopAfterText(slowModel(['a ', 'b ', 'c ']), 'hi');
    const long = await stopAfterText(slowModel(['a '.repeat(200), 'b '.repeat(200), 'c '.repeat(200)]), 'hi');
    expect(long.result.usage.outputTokens).toBeGreaterThan(short.result.usage.outputTokens);
    expect(long.result.usage.inputTokens).toBe(short.result.usage.inputTokens);
  });

  it('counts streamed reasoning as output too', async () => {
    const plain = await stopAfterText(slowModel(['a ', 'b ', 'c ']), 'hi');
    const thinking = await stopAfterText(slowModel(['a ', 'b ', 'c '], 'Let me think about this at some length. '.repeat(20)), 'hi');
    expect(thinking.result.usage.outputTokens).toBeGreaterThan(plain.result.usage.outputTokens);
  });
});
