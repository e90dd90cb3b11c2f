import { afterEach, describe, expect, it } from 'vitest';
import { serializeError, SDKError } from '@lousho/protocol';
import {
  OpenAIProvider,
  ProviderConnectionError,
  ProviderHttpError,
  ProviderStreamError,
  type GenerateOptions,
  type StreamChunk,
} from '../src/index.js';
import { startFakeApi, type FakeApiServer, type Reply } from './fake-api-server.js';
import { collect, failure, turn, user } from './helpers.js';
import {
  OPENAI_DONE,
  openaiChunk,
  openaiErrors,
  openaiParallelToolCallStream,
  openaiTextStream,
  openaiUsage,
  openaiUsageChunk,
} from './wire-fixtures.js';

const KEY = 'sk-test-4f9c2a7b1d3e5f60718293a4b5c6d7e8';
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let server: FakeApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function openai(replies: Reply[], options: Partial<ConstructorParameters<typeof OpenAIProvider>[0]> = {}) {
  server = await startFakeApi(replies);
  return new OpenAIProvider({ apiKey: KEY, baseURL: `${server.url}/v1`, env: {}, ...options });
}

const ask = (text = 'Hi'): GenerateOptions => ({ messages: [user(text)] });

describe('OpenAIProvider: streamed answers', () => {
  it('streams text deltas in order and ends with the mapped finish reason and usage', async () => {
    const provider = await openai([{ sse: openaiTextStream(['Hel', 'lo', ' there'], openaiUsage(12, 5, 8, 3)) }]);
    const chunks = await collect(provider.stream(ask()));
    expect(chunks).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'text-delta', text: ' there' },
      { type: 'finish', finishReason: 'stop', usage: { promptTokens: 12, completionTokens: 5, cachedInputTokens: 8, reasoningTokens: 3 } },
    ]);
  });

  it('assembles parallel tool calls whose arguments arrive split across chunks', async () => {
    const provider = await openai([{ sse: openaiParallelToolCallStream() }]);
    const result = await turn(provider, ask('Weather in Paris and Tokyo?'));
    expect(result.toolCalls).toEqual([
      { id: 'call_weather_paris', name: 'get_weather', arguments: '{"city": "Paris"}' },
      { id: 'call_weather_tokyo', name: 'get_weather', arguments: '{"city": "Tokyo"}' },
    ]);
    expect(result.finishReason).toBe('tool_calls');
    expect(result.usage).toEqual({ promptTokens: 82, completionTokens: 41, cachedInputTokens: 64, reasoningTokens: 0 });
  });

  it('streams each call start before its argument pieces, so a UI can show the call at once', async () => {
    const provider = await openai([{ sse: openaiParallelToolCallStream() }]);
    const chunks = await collect(provider.stream(ask()));
    const kinds = chunks.map((c) => (c.type === 'tool-call-start' ? `start:${c.index}` : c.type === 'tool-call-delta' ? `delta:${c.index}` : c.type));
    expect(kinds).toEqual(['start:0', 'delta:0', 'delta:0', 'delta:0', 'start:1', 'delta:1', 'delta:1', 'finish']);
  });

  it('leaves usage unset (not zeros) when the server sends no usage', async () => {
    const provider = await openai([{ sse: openaiTextStream(['ok'], null) }]);
    const result = await turn(provider, ask());
    expect(result.text).toBe('ok');
    expect(result.usage).toBeUndefined();
  });

  it.each([
    ['length', 'length'],
    ['content_filter', 'content_filter'],
    ['stop', 'stop'],
  ])('maps finish_reason %s to %s', async (api, ours) => {
    const provider = await openai([{ sse: [openaiChunk({ content: 'x' }), openaiChunk({}, api), OPENAI_DONE] }]);
    expect((await turn(provider, ask())).finishReason).toBe(ours);
  });

  it('shows a structured-output refusal as the answer text', async () => {
    const provider = await openai([{ sse: [openaiChunk({ role: 'assistant', content: null, refusal: '' }), openaiChunk({ refusal: "I can't help with that." }), openaiChunk({}, 'stop'), OPENAI_DONE] }]);
    expect((await turn(provider, ask())).text).toBe("I can't help with that.");
  });

  it('passes reasoning text (reasoning_content) on as reasoning deltas', async () => {
    const provider = await openai([{ sse: [openaiChunk({ reasoning_content: 'Think' }), openaiChunk({ content: 'Answer' }, 'stop'), OPENAI_DONE] }]);
    const chunks = await collect(provider.stream(ask()));
    expect(chunks.slice(0, 2)).toEqual([
      { type: 'reasoning-delta', text: 'Think' },
      { type: 'text-delta', text: 'Answer' },
    ]);
  });
});

describe('OpenAIProvider: the request it sends', () => {
  it('maps system, images, tool calls, tool results, tools, options and headers to the Chat Completions format', async () => {
    const provider = await openai([{ sse: openaiTextStream(['ok']) }], {
      organization: 'org-123',
      project: 'proj_456',
      headers: { 'x-trace': 'abc' },
      model: 'gpt-4o',
    });
    await turn(provider, {
      system: 'You are terse.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image', image: 'https://example.com/cat.jpg' },
            { type: 'image', image: PNG_BASE64 },
          ],
        },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"cat"}' }] },
        { role: 'tool', content: '{"found":true}', toolCallId: 'call_1', toolName: 'lookup' },
        { role: 'tool', content: 'boom', toolCallId: 'call_2', toolName: 'lookup', isError: true },
      ],
      tools: [{ name: 'lookup', description: 'Look things up', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }],
      temperature: 0.2,
      maxTokens: 300,
    });
    const [request] = server!.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers['openai-organization']).toBe('org-123');
    expect(request!.headers['openai-project']).toBe('proj_456');
    expect(request!.headers['x-trace']).toBe('abc');
    expect(request!.body).toEqual({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_completion_tokens: 300,
      messages: [
        { role: 'system', content: 'You are terse.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"cat"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"found":true}' },
        { role: 'tool', tool_call_id: 'call_2', content: 'boom' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'lookup', description: 'Look things up', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
        },
      ],
    });
  });

  it('asks for json_schema output when a schema is given and json_object without one', async () => {
    const provider = await openai([{ sse: openaiTextStream(['{}']) }]);
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    await turn(provider, { ...ask('JSON please'), responseFormat: { type: 'json', schema } });
    await turn(provider, { ...ask('JSON please'), responseFormat: { type: 'json' } });
    expect(server!.requests[0]!.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'response', schema, strict: false } });
    expect(server!.requests[1]!.body.response_format).toEqual({ type: 'json_object' });
  });

  it('uses the request model over its default, and its default (gpt-4o-mini) otherwise', async () => {
    const provider = await openai([{ sse: openaiTextStream(['ok']) }]);
    await turn(provider, { ...ask(), model: 'gpt-4.1' });
    await turn(provider, ask());
    expect(server!.requests.map((r) => r.body.model)).toEqual(['gpt-4.1', 'gpt-4o-mini']);
  });

  it('sends PDFs as file parts and text files as text', async () => {
    const provider = await openai([{ sse: openaiTextStream(['ok']) }]);
    await turn(provider, {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', data: 'JVBERi0xLjQK', mimeType: 'application/pdf', filename: 'report.pdf' },
            { type: 'file', data: btoa('hello notes'), mimeType: 'text/plain', filename: 'notes.txt' },
          ],
        },
      ],
    });
    expect(server!.requests[0]!.body.messages[0].content).toEqual([
      { type: 'file', file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' } },
      { type: 'text', text: 'notes.txt:\nhello notes' },
    ]);
  });

  it('refuses a file type the API cannot take, before any request', async () => {
    const provider = await openai([{ sse: openaiTextStream(['ok']) }]);
    const error = await failure(turn(provider, { messages: [{ role: 'user', content: [{ type: 'file', data: 'AAAA', mimeType: 'application/zip' }] }] }));
    expect(error).toMatchObject({ code: 'LOUSHO_INVALID_INPUT' });
    expect(error.message).toContain('application/zip');
    expect(server!.requests).toHaveLength(0);
  });
});

describe('OpenAIProvider: errors', () => {
  /** Every place an error's text could surface: message, hint, own fields, serialization, stack. */
  function allText(error: any): string {
    return [String(error), error.stack ?? '', error.hint ?? '', JSON.stringify({ ...error }), JSON.stringify(serializeError(error))].join('\n');
  }

  it('turns a 401 into a ProviderHttpError naming OpenAI and the status, with the key scrubbed everywhere', async () => {
    const provider = await openai([openaiErrors.unauthorized(KEY)]);
    const error = await failure(turn(provider, ask()));
    expect(error).toBeInstanceOf(ProviderHttpError);
    expect(error).toBeInstanceOf(SDKError);
    expect(error).toMatchObject({ code: 'LOUSHO_PROVIDER_HTTP_ERROR', provider: 'openai', status: 401, retryable: false, apiErrorType: 'invalid_api_key' });
    expect(error.message).toContain('OpenAI');
    expect(error.message).toContain('401');
    expect(error.message).toContain('Incorrect API key provided');
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(allText(error)).not.toContain(KEY);
    expect(allText(error)).not.toContain(KEY.slice(8));
  });

  it('reports a 404 with the API message, not retryable', async () => {
    const provider = await openai([openaiErrors.notFound]);
    const error = await failure(turn(provider, { ...ask(), model: 'gpt-nope' }));
    expect(error).toMatchObject({ status: 404, retryable: false });
    expect(error.message).toMatch(/OpenAI request failed with HTTP 404/);
    expect(error.message).toContain('The model `gpt-nope` does not exist');
  });

  it('marks a 429 retryable and reads Retry-After', async () => {
    const provider = await openai([openaiErrors.rateLimited]);
    const error = await failure(turn(provider, ask()));
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 2000, apiErrorType: 'rate_limit_exceeded' });
    expect(error.message).toContain('429');
  });

  it('prefers retry-after-ms and marks a 500 retryable', async () => {
    const provider = await openai([{ ...openaiErrors.serverError, headers: { 'retry-after-ms': '150' } }]);
    const error = await failure(turn(provider, ask()));
    expect(error).toMatchObject({ status: 500, retryable: true, retryAfterMs: 150 });
    expect(error.message).toContain('server had an error');
  });

  it('keeps the text of a non-JSON error page from a proxy, without the markup', async () => {
    const provider = await openai([{ status: 502, text: '<html><body><h1>502 Bad Gateway</h1></body></html>' }]);
    const error = await failure(turn(provider, ask()));
    expect(error).toMatchObject({ status: 502, retryable: true });
    expect(error.message).toContain('502 Bad Gateway');
    expect(error.message).not.toContain('<h1>');
  });

  it('reports a stream cut in the middle of a chunk as a retryable ProviderStreamError naming OpenAI', async () => {
    const provider = await openai([{ cutAfter: [openaiChunk({ content: 'Hel' }), 'data: {"id":"chatcmpl-9kQz3yQ1eXampLe","object":"chat.compl'] }]);
    const seen: StreamChunk[] = [];
    const error = await failure((async () => { for await (const c of provider.stream(ask())) seen.push(c); })());
    expect(seen).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error).toMatchObject({ provider: 'openai', retryable: true, code: 'LOUSHO_PROVIDER_ERROR' });
    expect(error.message).toContain('OpenAI');
  });

  it('reports a body that ends cleanly inside a chunk, or before the answer finished, as a cut stream', async () => {
    const provider = await openai([
      { sse: [openaiChunk({ content: 'Hel' }), 'data: {"id":"chatcmpl-9kQz3yQ1eXampLe","choi'] },
      { sse: [openaiChunk({ content: 'Hel' })] },
    ]);
    for (let i = 0; i < 2; i++) {
      const error = await failure(turn(provider, ask()));
      expect(error).toBeInstanceOf(ProviderStreamError);
      expect(error.message).toMatch(/OpenAI stream ended in the middle/);
    }
  });

  it('reports a malformed chunk as a ProviderStreamError that is not retryable', async () => {
    const provider = await openai([{ sse: [openaiChunk({ content: 'Hi' }), 'data: {"choices": [oops]}\n\n', OPENAI_DONE] }]);
    const error = await failure(turn(provider, ask()));
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error).toMatchObject({ provider: 'openai', retryable: false });
    expect(error.message).toContain('OpenAI sent a stream chunk that is not valid JSON');
  });

  it('rejects a chunk whose choices are not a list', async () => {
    const provider = await openai([{ sse: ['data: {"choices": "nope"}\n\n', OPENAI_DONE] }]);
    const error = await failure(turn(provider, ask()));
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error.message).toContain('`choices` is not an array');
  });

  it('explains a 200 JSON answer where a stream was expected', async () => {
    const provider = await openai([{ status: 200, json: { error: { message: 'streaming is disabled for this key' } } }]);
    const error = await failure(turn(provider, ask()));
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error.message).toContain('OpenAI answered with JSON instead of an event stream: streaming is disabled for this key');
  });

  it('reports an unreachable server as a retryable ProviderConnectionError naming the address', async () => {
    server = await startFakeApi([]);
    const url = server.url;
    await server.close();
    server = undefined;
    const provider = new OpenAIProvider({ apiKey: KEY, baseURL: `${url}/v1`, env: {} });
    const error = await failure(turn(provider, ask()));
    expect(error).toBeInstanceOf(ProviderConnectionError);
    expect(error).toMatchObject({ provider: 'openai', retryable: true });
    expect(error.message).toContain(`Could not reach OpenAI at ${url}`);
  });

  it('never shows the key even when fetch itself puts it in its message', async () => {
    const badKey = 'sk-test-line1\nline2-abcdefghijklmnop';
    const provider = new OpenAIProvider({ apiKey: badKey, baseURL: 'http://127.0.0.1:9/v1', env: {} });
    const error = await failure(turn(provider, ask()));
    expect(error).toBeInstanceOf(ProviderConnectionError);
    expect(allText(error)).not.toContain('line2-abcdefghijklmnop');
  });

  it('needs OPENAI_API_KEY for api.openai.com and says so', () => {
    expect(() => new OpenAIProvider({ env: {} })).toThrow(expect.objectContaining({ code: 'LOUSHO_MISSING_API_KEY', message: expect.stringContaining('OPENAI_API_KEY') }));
    expect(() => new OpenAIProvider({ env: { OPENAI_API_KEY: 'sk-from-env-000000000000' } })).not.toThrow();
  });
});

describe('OpenAIProvider: cancellation', () => {
  it('rejects with an AbortError as soon as the signal aborts mid-stream, and closes the connection', async () => {
    const provider = await openai([{ hangAfter: [openaiChunk({ role: 'assistant', content: 'Hel' })] }]);
    const controller = new AbortController();
    const seen: StreamChunk[] = [];
    const error = await failure(
      (async () => {
        for await (const chunk of provider.stream({ ...ask(), signal: controller.signal })) {
          seen.push(chunk);
          controller.abort();
        }
      })(),
    );
    expect(seen).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(error.name).toBe('AbortError');
    await server!.clientClosed;
  });

  it('closes the connection when the consumer stops reading early', async () => {
    const provider = await openai([{ hangAfter: [openaiChunk({ content: 'Hel' })] }]);
    for await (const chunk of provider.stream(ask())) {
      expect(chunk).toEqual({ type: 'text-delta', text: 'Hel' });
      break;
    }
    await server!.clientClosed;
  });

  it('does not send a request when the signal is already aborted', async () => {
    const provider = await openai([{ sse: openaiTextStream(['ok']) }]);
    const controller = new AbortController();
    controller.abort();
    const error = await failure(turn(provider, { ...ask(), signal: controller.signal }));
    expect(error.name).toBe('AbortError');
    expect(server!.requests).toHaveLength(0);
  });

  it('aborts promptly even with an injected fetch that ignores the signal', async () => {
    const provider = new OpenAIProvider({ apiKey: KEY, env: {}, fetch: () => new Promise<Response>(() => {}) });
    const controller = new AbortController();
    const pending = turn(provider, { ...ask(), signal: controller.signal });
    controller.abort();
    expect((await failure(pending)).name).toBe('AbortError');
  });
});

describe('OpenAIProvider: compatible-server quirks', () => {
  it('accepts a body without [DONE] when the finish reason came', async () => {
    const provider = await openai([{ sse: [openaiChunk({ content: 'ok' }, 'stop'), openaiUsageChunk(openaiUsage(3, 1))] }]);
    const result = await turn(provider, ask());
    expect(result).toMatchObject({ text: 'ok', finishReason: 'stop', usage: { promptTokens: 3, completionTokens: 1 } });
  });

  it('treats a whole call in one chunk, and a later call reusing index 0 with a new id, as separate calls', async () => {
    const call = (id: string, city: string) =>
      openaiChunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'get_weather', arguments: `{"city":"${city}"}` } }] });
    const provider = await openai([{ sse: [call('a', 'Paris'), call('b', 'Rome'), openaiChunk({}, 'stop'), OPENAI_DONE] }]);
    const result = await turn(provider, ask());
    expect(result.toolCalls).toEqual([
      { id: 'a', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { id: 'b', name: 'get_weather', arguments: '{"city":"Rome"}' },
    ]);
    // The server said `stop`, but the loop must run the calls.
    expect(result.finishReason).toBe('tool_calls');
  });
});
