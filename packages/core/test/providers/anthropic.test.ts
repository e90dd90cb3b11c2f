import { afterEach, describe, expect, it } from 'vitest';
import { serializeError } from '@lousho/protocol';
import { AnthropicProvider, ProviderHttpError, ProviderStreamError, type GenerateOptions, type StreamChunk } from '@lousho/providers';
import { startFakeApi, type FakeApiServer, type Reply } from '../../../providers/test/fake-api-server.js';
import { collect, failure, turn, user } from '../../../providers/test/helpers.js';
import {
  ANTHROPIC_PING,
  ANTHROPIC_STOP,
  anthropicErrors,
  anthropicEvent,
  anthropicMessageDelta,
  anthropicMessageStart,
  anthropicTextBlock,
  anthropicTextStream,
  anthropicToolBlock,
  anthropicToolStream,
} from '../../../providers/test/wire-fixtures.js';

const KEY = 'sk-ant-api03-Zq8Xv1Lm2Nb3Vc4Xz5Aa6Ss7Dd8Ff9Gg0Hh1Jj2Kk3';
const JPEG_BASE64 = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==';

let server: FakeApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function anthropic(replies: Reply[], options: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {}) {
  server = await startFakeApi(replies);
  return new AnthropicProvider({ apiKey: KEY, baseURL: server.url, env: {}, ...options });
}

const ask = (text = 'Hi'): GenerateOptions => ({ messages: [user(text)] });

describe('AnthropicProvider: streamed answers', () => {
  it('streams text deltas, skips pings, and reports the stop reason and usage', async () => {
    const provider = await anthropic([{ sse: anthropicTextStream(['Hello', ', ', 'world']) }]);
    const chunks = await collect(provider.stream(ask()));
    expect(chunks).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ', ' },
      { type: 'text-delta', text: 'world' },
      { type: 'finish', finishReason: 'stop', usage: { promptTokens: 25, completionTokens: 12, cachedInputTokens: 0 } },
    ]);
  });

  it('assembles text plus several tool_use blocks whose input arrives as JSON pieces', async () => {
    const provider = await anthropic([
      {
        sse: [
          anthropicMessageStart({ input_tokens: 100, cache_read_input_tokens: 300, cache_creation_input_tokens: 20, output_tokens: 1 }),
          ...anthropicTextBlock(0, ['Checking ', 'both.']),
          ...anthropicToolBlock(1, 'toolu_01A', 'get_weather', ['{"ci', 'ty": "Pa', 'ris"}']),
          ANTHROPIC_PING,
          ...anthropicToolBlock(2, 'toolu_01B', 'get_weather', ['{"city"', ': "Tokyo"}']),
          anthropicMessageDelta('tool_use', 77),
          ANTHROPIC_STOP,
        ],
      },
    ]);
    const result = await turn(provider, ask('Weather in Paris and Tokyo?'));
    expect(result.text).toBe('Checking both.');
    expect(result.toolCalls).toEqual([
      { id: 'toolu_01A', name: 'get_weather', arguments: '{"city": "Paris"}' },
      { id: 'toolu_01B', name: 'get_weather', arguments: '{"city": "Tokyo"}' },
    ]);
    expect(result.finishReason).toBe('tool_calls');
    // All input counted (cache reads and writes included), with the cache reads broken out.
    expect(result.usage).toEqual({ promptTokens: 420, completionTokens: 77, cachedInputTokens: 300 });
  });

  it('gives a tool with no parameters the empty object as arguments', async () => {
    const provider = await anthropic([{ sse: anthropicToolStream('toolu_1', 'current_time', []) }]);
    const result = await turn(provider, ask());
    expect(result.toolCalls).toEqual([{ id: 'toolu_1', name: 'current_time', arguments: '{}' }]);
  });

  it.each([
    ['max_tokens', 'length'],
    ['refusal', 'content_filter'],
    ['stop_sequence', 'stop'],
    ['end_turn', 'stop'],
  ])('maps stop_reason %s to %s', async (api, ours) => {
    const provider = await anthropic([{ sse: [anthropicMessageStart(), ...anthropicTextBlock(0, ['x']), anthropicMessageDelta(api, 3), ANTHROPIC_STOP] }]);
    expect((await turn(provider, ask())).finishReason).toBe(ours);
  });

  it('streams thinking blocks as reasoning deltas', async () => {
    const provider = await anthropic([
      {
        sse: [
          anthropicMessageStart(),
          anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }),
          anthropicEvent({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me see.' } }),
          anthropicEvent({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' } }),
          anthropicEvent({ type: 'content_block_stop', index: 0 }),
          ...anthropicTextBlock(1, ['42']),
          anthropicMessageDelta('end_turn', 9),
          ANTHROPIC_STOP,
        ],
      },
    ]);
    const chunks = await collect(provider.stream(ask()));
    expect(chunks.slice(0, 2)).toEqual([
      { type: 'reasoning-delta', text: 'Let me see.' },
      { type: 'text-delta', text: '42' },
    ]);
  });
});

describe('AnthropicProvider: the request it sends', () => {
  it('sends system apart, images as source blocks, tool calls as tool_use and all results of a turn in one user message', async () => {
    const provider = await anthropic([{ sse: anthropicTextStream(['ok']) }], { model: 'claude-sonnet-4-5', betas: ['prompt-caching-2024-07-31'] });
    await turn(provider, {
      system: 'Be brief.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these' },
            { type: 'image', image: JPEG_BASE64 },
            { type: 'image', image: 'data:image/webp;base64,UklGRhIAAABXRUJQVlA4' },
            { type: 'image', image: 'https://example.com/dog.png' },
          ],
        },
        {
          role: 'assistant',
          content: 'Looking both up.',
          toolCalls: [
            { id: 'toolu_a', name: 'lookup', arguments: '{"q":"cat"}' },
            { id: 'toolu_b', name: 'lookup', arguments: '{"q":"dog"}' },
          ],
        },
        { role: 'tool', content: '{"found":true}', toolCallId: 'toolu_a', toolName: 'lookup' },
        { role: 'tool', content: 'Lookup failed: timeout', toolCallId: 'toolu_b', toolName: 'lookup', isError: true },
        { role: 'user', content: 'And now?' },
      ],
      tools: [{ name: 'lookup', description: 'Look things up', parameters: { type: 'object', properties: { q: { type: 'string' } } } }],
      temperature: 0,
    });
    const [request] = server!.requests;
    expect(request!.path).toBe('/v1/messages');
    expect(request!.headers['x-api-key']).toBe(KEY);
    expect(request!.headers['anthropic-version']).toBe('2023-06-01');
    expect(request!.headers['anthropic-beta']).toBe('prompt-caching-2024-07-31');
    expect(request!.headers.authorization).toBeUndefined();
    expect(request!.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      stream: true,
      system: 'Be brief.',
      temperature: 0,
      tools: [{ name: 'lookup', description: 'Look things up', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these' },
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: JPEG_BASE64 } },
            { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'UklGRhIAAABXRUJQVlA4' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/dog.png' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Looking both up.' },
            { type: 'tool_use', id: 'toolu_a', name: 'lookup', input: { q: 'cat' } },
            { type: 'tool_use', id: 'toolu_b', name: 'lookup', input: { q: 'dog' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_a', content: '{"found":true}' },
            { type: 'tool_result', tool_use_id: 'toolu_b', content: 'Lookup failed: timeout', is_error: true },
            { type: 'text', text: 'And now?' },
          ],
        },
      ],
    });
  });

  it('uses the request maxTokens, and constrains a JSON answer with a forced tool whose input schema is the schema', async () => {
    const provider = await anthropic([
      {
        sse: [
          anthropicMessageStart({ input_tokens: 30, output_tokens: 1 }),
          ...anthropicToolBlock(0, 'toolu_answer', 'final_answer', ['{"ci', 'ty": "Paris"}']),
          anthropicMessageDelta('tool_use', 9),
          ANTHROPIC_STOP,
        ],
      },
    ]);
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const chunks = await collect(provider.stream({ system: 'Be brief.', messages: [user('City?')], maxTokens: 50, responseFormat: { type: 'json', schema } }));
    const body = server!.requests[0]!.body;
    expect(body.max_tokens).toBe(50);
    expect(body.tools).toEqual([{ name: 'final_answer', description: expect.any(String), input_schema: schema }]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'final_answer' });
    expect(body.system).toMatch(/^Be brief\.\n\nWhen you have the final answer, give it by calling the `final_answer` tool/);
    // The tool's input is the answer: streamed as text, and the turn is an answer, not a tool call.
    expect(chunks.filter((c) => c.type === 'text-delta').map((c) => (c as { text: string }).text).join('')).toBe('{"city": "Paris"}');
    expect(chunks.some((c) => c.type === 'tool-call-start')).toBe(false);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('with other tools, lets the model call them first (tool_choice any) and names the answer tool apart from them', async () => {
    const provider = await anthropic([
      {
        sse: [
          anthropicMessageStart({ input_tokens: 30, output_tokens: 1 }),
          ...anthropicToolBlock(0, 'toolu_1', 'final_answer', ['{"q":"x"}']),
          anthropicMessageDelta('tool_use', 9),
          ANTHROPIC_STOP,
        ],
      },
    ]);
    const schema = { type: 'object', properties: { n: { type: 'number' } } };
    const tools = [{ name: 'final_answer', description: "The user's own tool", parameters: { type: 'object', properties: { q: { type: 'string' } } } }];
    const chunks = await collect(provider.stream({ messages: [user('n?')], tools, responseFormat: { type: 'json', schema } }));
    const body = server!.requests[0]!.body;
    expect((body.tools as { name: string }[]).map((t) => t.name)).toEqual(['final_answer', 'final_answer_2']);
    expect(body.tool_choice).toEqual({ type: 'any' });
    // A call of the user's own tool of that name stays a tool call.
    expect(chunks).toContainEqual({ type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'final_answer' });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
  });

  it('wraps a schema whose root is not an object as { value } and unwraps the answer', async () => {
    const provider = await anthropic([
      {
        sse: [
          anthropicMessageStart({ input_tokens: 30, output_tokens: 1 }),
          ...anthropicToolBlock(0, 'toolu_answer', 'final_answer', ['{"value": ["a", ', '"b"]}']),
          anthropicMessageDelta('tool_use', 9),
          ANTHROPIC_STOP,
        ],
      },
    ]);
    const schema = { type: 'array', items: { type: 'string' } };
    const chunks = await collect(provider.stream({ messages: [user('List?')], responseFormat: { type: 'json', schema } }));
    const body = server!.requests[0]!.body;
    expect((body.tools as { input_schema: unknown }[])[0]!.input_schema).toEqual({ type: 'object', properties: { value: schema }, required: ['value'] });
    expect(chunks.filter((c) => c.type === 'text-delta')).toEqual([{ type: 'text-delta', text: '["a","b"]' }]);
  });

  it('keeps JSON without a schema as an instruction (nothing to constrain a tool with)', async () => {
    const provider = await anthropic([{ sse: anthropicTextStream(['{}']) }]);
    await turn(provider, { messages: [user('Any JSON')], responseFormat: { type: 'json' } });
    const body = server!.requests[0]!.body;
    expect(body.tools).toBeUndefined();
    expect(body.system).toMatch(/^Answer with a single JSON value only/);
  });

  it('sends PDFs and text files as document blocks', async () => {
    const provider = await anthropic([{ sse: anthropicTextStream(['ok']) }]);
    await turn(provider, {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', data: 'data:application/pdf;base64,JVBERi0xLjQK', mimeType: 'application/pdf', filename: 'a.pdf' },
            { type: 'file', data: btoa('plain words'), mimeType: 'text/plain' },
          ],
        },
      ],
    });
    expect(server!.requests[0]!.body.messages[0].content).toEqual([
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' }, title: 'a.pdf' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
    ]);
  });

  it('drops empty assistant turns and empty text, which the API rejects', async () => {
    const provider = await anthropic([{ sse: anthropicTextStream(['ok']) }]);
    await turn(provider, { messages: [user('one'), { role: 'assistant', content: '' }, user('two')] });
    expect(server!.requests[0]!.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] },
    ]);
  });
});

describe('AnthropicProvider: errors', () => {
  const allText = (error: any) => [String(error), error.stack ?? '', error.hint ?? '', JSON.stringify({ ...error }), JSON.stringify(serializeError(error))].join('\n');

  it('turns a 401 into a ProviderHttpError naming Anthropic and the status, never showing the key', async () => {
    const provider = await anthropic([anthropicErrors.unauthorized(KEY)]);
    const error = await failure(turn(provider, ask()));
    expect(error).toBeInstanceOf(ProviderHttpError);
    expect(error).toMatchObject({ provider: 'anthropic', status: 401, retryable: false, apiErrorType: 'authentication_error' });
    expect(error.message).toContain('Anthropic request failed with HTTP 401');
    expect(error.message).toContain('invalid x-api-key');
    expect(error.message).toContain('ANTHROPIC_API_KEY');
    expect(allText(error)).not.toContain(KEY);
  });

  it('reports 404, 429 (with Retry-After), 500 and 529 with the right retry flags', async () => {
    const provider = await anthropic([anthropicErrors.notFound, anthropicErrors.rateLimited, anthropicErrors.serverError, anthropicErrors.overloaded]);
    const notFound = await failure(turn(provider, ask()));
    const limited = await failure(turn(provider, ask()));
    const broken = await failure(turn(provider, ask()));
    const overloaded = await failure(turn(provider, ask()));
    expect(notFound).toMatchObject({ status: 404, retryable: false });
    expect(notFound.message).toContain('model: claude-nope');
    expect(limited).toMatchObject({ status: 429, retryable: true, retryAfterMs: 7000 });
    expect(broken).toMatchObject({ status: 500, retryable: true });
    expect(overloaded).toMatchObject({ status: 529, retryable: true });
    expect(overloaded.message).toContain('HTTP 529 Overloaded: Overloaded');
  });

  it('turns an error event in the middle of the stream into a ProviderStreamError', async () => {
    const provider = await anthropic([
      { sse: [anthropicMessageStart(), anthropicEvent({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })] },
    ]);
    const error = await failure(turn(provider, ask()));
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error).toMatchObject({ provider: 'anthropic', retryable: true, apiErrorType: 'overloaded_error' });
    expect(error.message).toContain('Anthropic reported an error in the middle of its stream (overloaded_error): Overloaded');
  });

  it('reports a stream cut mid-event as a retryable ProviderStreamError', async () => {
    const provider = await anthropic([{ cutAfter: [anthropicMessageStart(), ...anthropicTextBlock(0, ['Hel']).slice(0, 2), 'event: content_block_delta\ndata: {"type":"content_blo'] }]);
    const seen: StreamChunk[] = [];
    const error = await failure((async () => { for await (const c of provider.stream(ask())) seen.push(c); })());
    expect(seen).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error).toMatchObject({ provider: 'anthropic', retryable: true });
    expect(error.message).toContain('Anthropic');
  });

  it('reports a body that ends before message_stop and without a stop reason as cut', async () => {
    const provider = await anthropic([{ sse: [anthropicMessageStart(), ...anthropicTextBlock(0, ['Hel'])] }]);
    const error = await failure(turn(provider, ask()));
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error.message).toMatch(/Anthropic stream ended in the middle/);
  });

  it('reports a malformed event and a delta for a block that never started', async () => {
    const provider = await anthropic([
      { sse: [anthropicMessageStart(), 'event: content_block_start\ndata: {"type":"content_block_start","index":0,\n\n'] },
      { sse: [anthropicMessageStart(), anthropicEvent({ type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'x' } })] },
    ]);
    const bad = await failure(turn(provider, ask()));
    expect(bad).toBeInstanceOf(ProviderStreamError);
    expect(bad).toMatchObject({ retryable: false });
    expect(bad.message).toContain('Anthropic sent a stream chunk that is not valid JSON');
    const orphan = await failure(turn(provider, ask()));
    expect(orphan.message).toContain('block 3, which never started');
  });

  it('needs ANTHROPIC_API_KEY for api.anthropic.com and says so', () => {
    expect(() => new AnthropicProvider({ env: {} })).toThrow(expect.objectContaining({ code: 'LOUSHO_MISSING_API_KEY', message: expect.stringContaining('ANTHROPIC_API_KEY') }));
  });
});

describe('AnthropicProvider: cancellation', () => {
  it('rejects with an AbortError when aborted mid-stream and closes the connection', async () => {
    const provider = await anthropic([{ hangAfter: [anthropicMessageStart(), ...anthropicTextBlock(0, ['Hel']).slice(0, 2)] }]);
    const controller = new AbortController();
    const error = await failure(
      (async () => {
        for await (const chunk of provider.stream({ ...ask(), signal: controller.signal })) {
          expect(chunk).toEqual({ type: 'text-delta', text: 'Hel' });
          controller.abort();
        }
      })(),
    );
    expect(error.name).toBe('AbortError');
    await server!.clientClosed;
  });
});

describe('AnthropicProvider: structured output through an agent', () => {
  it('runs a tool first, then returns the forced answer tool input as result.object', async () => {
    const { createAgent, defineTool } = await import('../../src/index.js');
    const { z } = await import('zod');
    const provider = await anthropic([
      { sse: [anthropicMessageStart({ input_tokens: 10, output_tokens: 1 }), ...anthropicToolBlock(0, 'toolu_w', 'get_weather', ['{"city":"Paris"}']), anthropicMessageDelta('tool_use', 5), ANTHROPIC_STOP] },
      { sse: [anthropicMessageStart({ input_tokens: 20, output_tokens: 1 }), ...anthropicToolBlock(0, 'toolu_a', 'final_answer', ['{"city":"Paris",', '"tempC":21}']), anthropicMessageDelta('tool_use', 7), ANTHROPIC_STOP] },
    ]);
    const weather = defineTool({ name: 'get_weather', description: 'Weather', input: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, tempC: 21 }) });
    const agent = createAgent({ provider, tools: [weather], output: z.object({ city: z.string(), tempC: z.number() }) });
    const result = await agent.send('Weather in Paris as JSON');
    expect(result.finishReason).toBe('stop');
    expect(result.object).toEqual({ city: 'Paris', tempC: 21 });
    expect(server!.requests.map((r) => r.body.tool_choice)).toEqual([{ type: 'any' }, { type: 'any' }]);
    // The answer stays an assistant text in the transcript (what the next request would carry).
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', content: '{"city":"Paris","tempC":21}' });
  });
});
