import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createMockProvider,
  generateFromStream,
  MockLLMProvider,
  type GenerateOptions,
  type StreamChunk,
} from '../src/index.js';
import { splitForStreaming } from '../src/mock-response.js';

async function collect(stream: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const ask = (text: string, extra: Partial<GenerateOptions> = {}): GenerateOptions => ({
  messages: [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: text },
  ],
  ...extra,
});

describe('createMockProvider() defaults', () => {
  it('answers with a deterministic reply derived from the last user message', async () => {
    const provider = createMockProvider();
    expect(provider).toBeInstanceOf(MockLLMProvider);
    expect(provider.name).toBe('mock');
    expect(provider.defaultModel).toBe('mock-model');
    const first = await provider.generate(ask('What is the weather?'));
    const again = await createMockProvider().generate(ask('What is the weather?'));
    expect(first.text).toBe('Mock response to: "What is the weather?"');
    expect(again).toEqual(first);
    expect(first.finishReason).toBe('stop');
    expect(first.toolCalls).toEqual([]);
  });

  it('streams the reply in several chunks and reports usage on the finish chunk', async () => {
    const chunks = await collect(createMockProvider().stream(ask('Tell me a story')));
    const text = chunks.filter((c) => c.type === 'text-delta');
    expect(text.length).toBeGreaterThan(1);
    const finish = chunks.at(-1);
    expect(finish).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(finish?.type === 'finish' && finish.usage?.promptTokens).toBeGreaterThan(0);
    expect(finish?.type === 'finish' && finish.usage?.completionTokens).toBeGreaterThan(0);
  });

  it('uses content parts and ignores later non-user messages', async () => {
    const result = await createMockProvider().generate({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Describe ' }, { type: 'image', image: 'https://x/y.png' }, { type: 'text', text: 'this' }] },
        { role: 'assistant', content: 'earlier answer' },
      ],
    });
    expect(result.text).toBe('Mock response to: "Describe this"');
  });

  it('shortens long messages and copes with no user message', async () => {
    const long = await createMockProvider().generate(ask('word '.repeat(100)));
    expect(long.text.length).toBeLessThan(100);
    expect(long.text.endsWith('…"')).toBe(true);
    const none = await createMockProvider().generate({ messages: [{ role: 'system', content: 'sys' }] });
    expect(none.text).toBe('Mock response.');
  });

  it('honours chunkSize and model options', async () => {
    const provider = createMockProvider({ chunkSize: 3, model: 'demo-1' });
    expect(provider.defaultModel).toBe('demo-1');
    const chunks = await collect(provider.stream(ask('hi')));
    for (const c of chunks) if (c.type === 'text-delta') expect(Array.from(c.text).length).toBeLessThanOrEqual(3);
  });
});

describe('createMockProvider({ responses })', () => {
  it('cycles through the given replies, tool calls included', async () => {
    const provider = createMockProvider({
      responses: [{ toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] }, 'It is sunny.'],
    });
    const r1 = await generateFromStream(provider, ask('weather?'));
    const r2 = await generateFromStream(provider, ask('weather?'));
    const r3 = await generateFromStream(provider, ask('weather?'));
    expect(r1).toMatchObject({ finishReason: 'tool_calls', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] });
    expect(r2).toMatchObject({ text: 'It is sunny.', finishReason: 'stop' });
    expect(r3.toolCalls[0]).toMatchObject({ id: 'call_2', name: 'get_weather' });
    expect(provider.requestCount).toBe(3);
  });

  it('rejects bad options with a coded error', () => {
    expect(() => createMockProvider({ chunkSize: 0 })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_INPUT' }));
    expect(() => createMockProvider({ delayMs: -1 })).toThrow(/delayMs/);
    expect(() => createMockProvider({ responses: [{ toolCalls: [{ name: '' }] }] })).toThrow(/responses\[0\].*name/);
  });
});

describe('createMockProvider() cancellation', () => {
  it('rejects at once for an already-aborted signal, without using a reply', async () => {
    const provider = createMockProvider();
    const controller = new AbortController();
    controller.abort();
    await expect(collect(provider.stream(ask('hi', { signal: controller.signal })))).rejects.toMatchObject({ name: 'AbortError' });
    expect(provider.requestCount).toBe(0);
  });

  it('stops a slow stream when aborted while waiting between chunks', async () => {
    const provider = createMockProvider({ delayMs: 60_000 });
    const controller = new AbortController();
    const iterator = provider.stream(ask('hi', { signal: controller.signal }))[Symbol.asyncIterator]();
    const pending = iterator.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('works with AbortSignal.timeout()', async () => {
    const provider = createMockProvider({ delayMs: 60_000 });
    await expect(provider.generate(ask('hi', { signal: AbortSignal.timeout(5) }))).rejects.toSatisfy(
      (err: unknown) => (err as Error).name === 'AbortError',
    );
  });
});

describe('splitForStreaming', () => {
  it('splits word by word by default and by code points with a size', () => {
    expect(splitForStreaming('Hello big  world ')).toEqual(['Hello', ' big', '  world ']);
    expect(splitForStreaming('ab😀cd', 2)).toEqual(['ab', '😀c', 'd']);
    expect(splitForStreaming('')).toEqual([]);
    expect(splitForStreaming('   ')).toEqual(['   ']);
  });

  it('always joins back to the input (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }), (text, size) => {
        const pieces = splitForStreaming(text, size);
        expect(pieces.join('')).toBe(text);
        expect(pieces.every((p) => p.length > 0)).toBe(true);
      }),
    );
  });
});
