import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SDKError } from '@lousho/protocol';
import type { Message } from '@lousho/protocol';
import { generateFromStream, type GenerateOptions, type StreamChunk } from '@lousho/providers';
import { createMockProvider, MockLLMProvider, mockModel, MockProviderError } from '../src/index.js';

async function collect(stream: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const request = (text: string, extra: Partial<GenerateOptions> = {}): GenerateOptions => ({
  messages: [{ role: 'user', content: text }],
  ...extra,
});

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('mockModel script forms', () => {
  it('a string step is a text reply that finishes with stop', async () => {
    const model = mockModel(['Hello!']);
    const result = await generateFromStream(model, request('hi'));
    expect(result).toMatchObject({ text: 'Hello!', toolCalls: [], finishReason: 'stop' });
  });

  it('an object step can reply with text and tool calls; ids default to call_<n> across calls', async () => {
    const model = mockModel([
      { text: 'Checking.', toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }, { name: 'get_time', id: 'mine' }] },
      { toolCalls: [{ name: 'get_weather', args: { city: 'Rome' } }] },
      'Done.',
    ]);
    const first = await model.generate(request('weather?'));
    expect(first).toMatchObject({
      text: 'Checking.',
      finishReason: 'tool_calls',
      toolCalls: [
        { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { id: 'mine', name: 'get_time', arguments: '{}' },
      ],
    });
    const second = await model.generate(request('weather?'));
    expect(second.toolCalls).toEqual([{ id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' }]);
    expect((await model.generate(request('ok'))).text).toBe('Done.');
  });

  it('streams tool arguments as start + delta pieces that reassemble exactly', async () => {
    const args = { query: 'a fairly long search query', limit: 10, tags: ['x', 'y'] };
    const chunks = await collect(mockModel([{ toolCalls: [{ name: 'search', args }] }]).stream(request('find')));
    const start = chunks.find((c) => c.type === 'tool-call-start');
    const deltas = chunks.filter((c): c is Extract<StreamChunk, { type: 'tool-call-delta' }> => c.type === 'tool-call-delta');
    expect(start).toEqual({ type: 'tool-call-start', index: 0, id: 'call_1', name: 'search' });
    expect(deltas.length).toBeGreaterThan(1);
    expect(JSON.parse(deltas.map((d) => d.argumentsDelta).join(''))).toEqual(args);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
    expect(chunks.filter((c) => c.type === 'finish')).toHaveLength(1);
  });

  it('streams text in chunkSize pieces when asked (option or per step)', async () => {
    const byOption = await collect(mockModel(['abcdefgh'], { chunkSize: 3 }).stream(request('x')));
    expect(byOption.filter((c) => c.type === 'text-delta').map((c) => (c as { text: string }).text)).toEqual(['abc', 'def', 'gh']);
    const byStep = await collect(mockModel([{ text: 'abcd', chunkSize: 1 }], { chunkSize: 3 }).stream(request('x')));
    expect(byStep.filter((c) => c.type === 'text-delta')).toHaveLength(4);
  });

  it('any chunk size assembles to the same reply (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), fc.json(), fc.integer({ min: 1, max: 16 }), async (text, raw, size) => {
        const step = { text, toolCalls: [{ name: 't', rawArguments: raw }] };
        const result = await mockModel([step], { chunkSize: size }).generate(request('x'));
        expect(result.text).toBe(text);
        expect(result.toolCalls[0]?.arguments).toBe(raw);
      }),
      { numRuns: 50 },
    );
  });

  it('rawArguments are passed through verbatim, even when not JSON', async () => {
    const result = await mockModel([{ toolCalls: [{ name: 'broken', rawArguments: '{"city": "Par', args: { ignored: true } }] }]).generate(request('x'));
    expect(result.toolCalls[0]?.arguments).toBe('{"city": "Par');
  });

  it('a finishReason in the step is reported as is', async () => {
    const result = await mockModel([{ text: 'cut off', finishReason: 'length' }]).generate(request('x'));
    expect(result.finishReason).toBe('length');
  });

  it('an Error step makes that call throw it; later steps still run', async () => {
    const boom = new Error('rate limited');
    const model = mockModel([boom, 'recovered']);
    await expect(model.generate(request('x'))).rejects.toBe(boom);
    await expect(model.generate(request('x'))).resolves.toMatchObject({ text: 'recovered' });
    expect(model.calls).toHaveLength(2);
  });

  it('a function step is computed from each request (sync or async)', async () => {
    const model = mockModel([
      (req) => `You said: ${String(req.messages.at(-1)?.content)}`,
      async (req) => ({ toolCalls: [{ name: 'echo', args: { n: req.messages.length } }] }),
      () => new Error('from function'),
    ]);
    expect((await model.generate(request('ping'))).text).toBe('You said: ping');
    expect((await model.generate({ messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }] })).toolCalls[0]?.arguments).toBe('{"n":2}');
    await expect(model.generate(request('x'))).rejects.toThrow('from function');
  });

  it('rejects malformed steps with a coded error that says which step', async () => {
    const err = caught(() => mockModel(['ok', { toolCalls: [{ name: '' }] }]));
    expect(err).toBeInstanceOf(MockProviderError);
    expect(err).toMatchObject({ code: 'LOUSHO_INVALID_INPUT', message: expect.stringContaining('step 2') });
    expect(caught(() => mockModel('Hello' as never))).toMatchObject({ code: 'LOUSHO_INVALID_INPUT' });
    const fromFunction = mockModel([() => ({ toolCalls: [{ name: 'x', args: { big: 1n } }] })]);
    await expect(fromFunction.generate(request('x'))).rejects.toMatchObject({ code: 'LOUSHO_INVALID_INPUT' });
  });
});

describe('mockModel usage', () => {
  it('reports a deterministic estimate by default', async () => {
    const a = await mockModel(['Hello there!']).generate(request('What is up?'));
    const b = await mockModel(['Hello there!']).generate(request('What is up?'));
    expect(a.usage).toEqual({ promptTokens: 3, completionTokens: 3 });
    expect(b.usage).toEqual(a.usage);
    const withSystem = await mockModel(['Hello there!']).generate(request('What is up?', { system: 'Be brief, please' }));
    expect(withSystem.usage).toEqual({ promptTokens: 7, completionTokens: 3 });
  });

  it('reports the given usage, or none at all for null', async () => {
    const given = await mockModel([{ text: 'x', usage: { promptTokens: 100, completionTokens: 7, cachedInputTokens: 50 } }]).generate(request('x'));
    expect(given.usage).toEqual({ promptTokens: 100, completionTokens: 7, cachedInputTokens: 50 });
    const chunks = await collect(mockModel([{ text: 'x', usage: null }]).stream(request('x')));
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect((await mockModel([{ text: 'x', usage: null }]).generate(request('x'))).usage).toBeUndefined();
  });
});

describe('mockModel recording', () => {
  it('records deep copies of every request, without the signal', async () => {
    const model = mockModel(['one', 'two']);
    const messages: Message[] = [{ role: 'user', content: 'first', metadata: { tag: 'a' } }];
    const controller = new AbortController();
    await model.generate({ messages, system: 'Be nice.', model: 'small', tools: [{ name: 't', description: 'd', parameters: { type: 'object' } }], temperature: 0, signal: controller.signal });
    messages.push({ role: 'assistant', content: 'one' });
    (messages[0]!.metadata as { tag: string }).tag = 'changed';
    await model.generate({ messages });

    expect(model.calls).toHaveLength(2);
    expect(model.calls[0]).toEqual({
      messages: [{ role: 'user', content: 'first', metadata: { tag: 'a' } }],
      system: 'Be nice.',
      model: 'small',
      tools: [{ name: 't', description: 'd', parameters: { type: 'object' } }],
      temperature: 0,
    });
    expect('signal' in model.calls[0]!).toBe(false);
    expect(model.lastCall?.messages).toHaveLength(2);
    expect(model.lastCall).toBe(model.calls[1]);
  });

  it("keeps the agent's frozen transcript messages by reference, so a long run's log does not copy the transcript at every step", async () => {
    const model = mockModel(['one', 'two']);
    const first = Object.freeze({ role: 'user', content: 'x'.repeat(10_000) }) as Message;
    const transcript: Message[] = [first];
    await model.generate({ messages: transcript });
    transcript.push(Object.freeze({ role: 'assistant', content: 'one' }) as Message);
    await model.generate({ messages: transcript });
    expect(model.calls[0]!.messages).toHaveLength(1);
    expect(model.calls[1]!.messages).toHaveLength(2);
    expect(model.calls[0]!.messages[0]).toBe(first);
    expect(model.calls[1]!.messages[0]).toBe(first);
  });

  it('lastCall is undefined before any call', () => {
    expect(mockModel(['x']).lastCall).toBeUndefined();
  });

  it('reset() clears calls and rewinds the script and the call ids', async () => {
    const model = mockModel([{ toolCalls: [{ name: 't' }] }, 'second']);
    await model.generate(request('a'));
    model.reset();
    expect(model.calls).toEqual([]);
    expect(model.remaining).toBe(2);
    const again = await model.generate(request('b'));
    expect(again.toolCalls[0]?.id).toBe('call_1');
    expect(model.calls).toHaveLength(1);
  });

  it('assertExhausted() passes when every step was used and says how many were left otherwise', async () => {
    const model = mockModel(['a', 'b', 'c']);
    await model.generate(request('x'));
    const err = caught(() => model.assertExhausted());
    expect(err).toMatchObject({ code: 'LOUSHO_MOCK_UNUSED_STEPS' });
    expect((err as Error).message).toContain('2 of 3 script steps were never used');
    await model.generate(request('x'));
    await model.generate(request('x'));
    expect(() => model.assertExhausted()).not.toThrow();
  });
});

describe('mockModel exhaustion', () => {
  it('throws a coded error naming the counts when the script runs out', async () => {
    const model = mockModel(['only']);
    await model.generate(request('x'));
    const rejection = model.generate(request('again'));
    await expect(rejection).rejects.toBeInstanceOf(MockProviderError);
    await expect(rejection).rejects.toSatisfy((err: unknown) => SDKError.is(err) && err.hint.includes('repeat-last'));
    await expect(rejection).rejects.toMatchObject({
      code: 'LOUSHO_MOCK_EXHAUSTED',
      message: expect.stringMatching(/1 step, but the model was called 2 times.*repeat-last/),
    });
    expect(model.lastCall?.messages[0]?.content).toBe('again');
  });

  it("whenExhausted: 'repeat-last' keeps answering with the last step", async () => {
    const model = mockModel(['first', (req) => `echo ${String(req.messages[0]?.content)}`], { whenExhausted: 'repeat-last' });
    const texts: string[] = [];
    for (const q of ['a', 'b', 'c', 'd']) texts.push((await model.generate(request(q))).text);
    expect(texts).toEqual(['first', 'echo b', 'echo c', 'echo d']);
    expect(() => model.assertExhausted()).not.toThrow();
  });

  it('an empty script fails on the first call', async () => {
    await expect(mockModel([], { whenExhausted: 'repeat-last' }).generate(request('x'))).rejects.toMatchObject({ code: 'LOUSHO_MOCK_EXHAUSTED' });
  });
});

describe('mockModel cancellation', () => {
  it('an already-aborted call rejects at once and neither consumes a step nor is recorded', async () => {
    const model = mockModel(['kept']);
    const controller = new AbortController();
    controller.abort();
    await expect(model.generate(request('x', { signal: controller.signal }))).rejects.toMatchObject({ name: 'AbortError' });
    expect(model.calls).toHaveLength(0);
    expect((await model.generate(request('x'))).text).toBe('kept');
  });

  it('aborting while waiting on delayMs rejects promptly (a 60 s delay would time the test out)', async () => {
    const model = mockModel(['slow reply here'], { delayMs: 60_000 });
    const controller = new AbortController();
    const iterator = model.stream(request('x', { signal: controller.signal }))[Symbol.asyncIterator]();
    const pending = iterator.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(model.calls).toHaveLength(1);
  });

  it('aborting between chunks stops the stream with an AbortError', async () => {
    const model = mockModel([{ text: 'one two three four', delayMs: 1 }]);
    const controller = new AbortController();
    const seen: StreamChunk[] = [];
    const run = (async () => {
      for await (const chunk of model.stream(request('x', { signal: controller.signal }))) {
        seen.push(chunk);
        controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(1);
  });

  it('a function step that settles after the abort still rejects with an AbortError', async () => {
    const controller = new AbortController();
    const model = mockModel([
      async () => {
        controller.abort();
        return 'too late';
      },
    ]);
    await expect(model.generate(request('x', { signal: controller.signal }))).rejects.toMatchObject({ name: 'AbortError' });
  });
});

it('aborting while a function step is still computing rejects with an AbortError', async () => {
  const controller = new AbortController();
  const model = mockModel([() => new Promise<string>(() => {})]);
  const pending = model.generate(request('x', { signal: controller.signal }));
  await Promise.resolve();
  controller.abort();
  await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
});

describe('testing entry conveniences', () => {
  it('re-exports the demo mock provider', async () => {
    expect(createMockProvider()).toBeInstanceOf(MockLLMProvider);
    expect(mockModel(['x'], { name: 'scripted', model: 'm-1' })).toMatchObject({ name: 'scripted', defaultModel: 'm-1' });
  });
});
