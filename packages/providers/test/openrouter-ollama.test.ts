import { afterEach, describe, expect, it } from 'vitest';
import { OllamaProvider, OpenAICompatibleProvider, OpenRouterProvider, ProviderHttpError, ProviderStreamError } from '../src/index.js';
import { ollamaBaseURL } from '../src/ollama.js';
import { startFakeApi, type FakeApiServer, type Reply } from './fake-api-server.js';
import { collect, failure, turn, user } from './helpers.js';
import { OPENAI_DONE, openaiChunk, openaiTextStream, openaiUsage, openaiUsageChunk } from './wire-fixtures.js';

let server: FakeApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(replies: Reply[]) {
  server = await startFakeApi(replies);
  return server;
}

const OR_KEY = 'sk-or-v1-0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c';

describe('OpenRouterProvider', () => {
  it('sends its key, the attribution headers and the vendor-prefixed model id', async () => {
    const { url } = await serve([{ sse: openaiTextStream(['ok']) }]);
    const provider = new OpenRouterProvider({ apiKey: OR_KEY, baseURL: `${url}/api/v1`, model: 'anthropic/claude-3.5-sonnet', appUrl: 'https://myapp.example', appName: 'My App', env: {} });
    await turn(provider, { messages: [user('Hi')], maxTokens: 10 });
    const [request] = server!.requests;
    expect(request!.path).toBe('/api/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${OR_KEY}`);
    expect(request!.headers['http-referer']).toBe('https://myapp.example');
    expect(request!.headers['x-title']).toBe('My App');
    expect(request!.body).toMatchObject({ model: 'anthropic/claude-3.5-sonnet', max_tokens: 10, stream_options: { include_usage: true } });
  });

  it('ignores its keep-alive comments and reads `delta.reasoning` as reasoning', async () => {
    const { url } = await serve([
      {
        sse: [
          ': OPENROUTER PROCESSING\n\n',
          openaiChunk({ role: 'assistant', content: '', reasoning: 'Hmm.' }, null, 'deepseek/deepseek-r1'),
          ': OPENROUTER PROCESSING\n\n',
          openaiChunk({ content: 'Yes.' }, 'stop', 'deepseek/deepseek-r1'),
          openaiUsageChunk(openaiUsage(9, 4), 'deepseek/deepseek-r1'),
          OPENAI_DONE,
        ],
      },
    ]);
    const provider = new OpenRouterProvider({ apiKey: OR_KEY, baseURL: `${url}/api/v1`, env: {} });
    const chunks = await collect(provider.stream({ messages: [user('?')] }));
    expect(chunks).toEqual([
      { type: 'reasoning-delta', text: 'Hmm.' },
      { type: 'text-delta', text: 'Yes.' },
      { type: 'finish', finishReason: 'stop', usage: { promptTokens: 9, completionTokens: 4, cachedInputTokens: 0, reasoningTokens: 0 } },
    ]);
  });

  it('turns an upstream error sent mid-stream into a ProviderStreamError with its message', async () => {
    const { url } = await serve([
      {
        sse: [
          openaiChunk({ content: '' }),
          `data: ${JSON.stringify({
            id: 'gen-1',
            object: 'chat.completion.chunk',
            created: 1720000000,
            model: 'openai/gpt-4o',
            provider: 'OpenAI',
            error: { code: 502, message: 'Provider returned error' },
            choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
          })}\n\n`,
          OPENAI_DONE,
        ],
      },
    ]);
    const provider = new OpenRouterProvider({ apiKey: OR_KEY, baseURL: `${url}/api/v1`, env: {} });
    const error = await failure(turn(provider, { messages: [user('?')] }));
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error).toMatchObject({ provider: 'openrouter', retryable: true });
    expect(error.message).toContain('OpenRouter reported an error in the middle of its stream (status 502): Provider returned error');
  });

  it('reports 402 (out of credits) naming OpenRouter, not retryable', async () => {
    const { url } = await serve([{ status: 402, json: { error: { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/credits' } } }]);
    const provider = new OpenRouterProvider({ apiKey: OR_KEY, baseURL: `${url}/api/v1`, env: {} });
    const error = await failure(turn(provider, { messages: [user('?')] }));
    expect(error).toBeInstanceOf(ProviderHttpError);
    expect(error).toMatchObject({ provider: 'openrouter', status: 402, retryable: false });
    expect(error.message).toContain('OpenRouter request failed with HTTP 402: Insufficient credits');
  });

  it('needs OPENROUTER_API_KEY', () => {
    expect(() => new OpenRouterProvider({ env: {} })).toThrow(expect.objectContaining({ code: 'LOUSHO_MISSING_API_KEY', message: expect.stringContaining('OPENROUTER_API_KEY') }));
  });
});

describe('OllamaProvider', () => {
  it('talks to OLLAMA_HOST/v1 without any Authorization header', async () => {
    const { url } = await serve([{ sse: openaiTextStream(['Hi'], null) }]);
    const provider = new OllamaProvider({ env: { OLLAMA_HOST: url }, model: 'qwen2.5:7b' });
    const result = await turn(provider, { messages: [user('Hello')] });
    expect(result.text).toBe('Hi');
    expect(result.usage).toBeUndefined();
    const [request] = server!.requests;
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBeUndefined();
    expect(request!.body.model).toBe('qwen2.5:7b');
  });

  it('reads a tool call Ollama sends whole in one chunk', async () => {
    const { url } = await serve([
      {
        sse: [
          openaiChunk({ role: 'assistant', content: '', tool_calls: [{ id: 'call_o1', index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] }, null, 'llama3.2'),
          openaiChunk({ role: 'assistant', content: '' }, 'tool_calls', 'llama3.2'),
          openaiUsageChunk({ prompt_tokens: 140, completion_tokens: 18, total_tokens: 158 }, 'llama3.2'),
          OPENAI_DONE,
        ],
      },
    ]);
    const provider = new OllamaProvider({ host: url });
    const result = await turn(provider, { messages: [user('Weather in Oslo?')] });
    expect(result.toolCalls).toEqual([{ id: 'call_o1', name: 'get_weather', arguments: '{"city":"Oslo"}' }]);
    expect(result.usage).toEqual({ promptTokens: 140, completionTokens: 18 });
  });

  it('names the missing model in a 404', async () => {
    const { url } = await serve([{ status: 404, json: { error: { message: 'model "nope" not found, try pulling it first', type: 'api_error', param: null, code: null } } }]);
    const error = await failure(turn(new OllamaProvider({ host: url, model: 'nope' }), { messages: [user('x')] }));
    expect(error).toMatchObject({ provider: 'ollama', status: 404 });
    expect(error.message).toContain('Ollama request failed with HTTP 404 Not Found: model "nope" not found, try pulling it first. Check the model id');
  });

  it.each([
    [undefined, 'http://localhost:11434/v1'],
    ['0.0.0.0', 'http://localhost:11434/v1'],
    ['127.0.0.1:11500', 'http://127.0.0.1:11500/v1'],
    ['gpu-box', 'http://gpu-box:11434/v1'],
    ['https://ollama.example.com', 'https://ollama.example.com/v1'],
    ['http://10.0.0.5:11434/', 'http://10.0.0.5:11434/v1'],
    ['http://proxy.local/ollama/v1', 'http://proxy.local/ollama/v1'],
  ])('reads OLLAMA_HOST=%s as %s', (host, expected) => {
    expect(new OllamaProvider({ env: host === undefined ? {} : { OLLAMA_HOST: host } }).baseURL).toBe(expected);
  });

  it('rejects an OLLAMA_HOST that is not an address', () => {
    expect(() => ollamaBaseURL('http://exa mple:port')).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG', message: expect.stringContaining('Ollama host') }));
  });
});

describe('OpenAICompatibleProvider', () => {
  it('scrubs a key of any shape from error messages', async () => {
    const key = 'gateway-key-7c1e9b2f0a';
    const { url } = await serve([{ status: 403, json: { error: { message: `key ${key} is not allowed` } } }]);
    const provider = new OpenAICompatibleProvider({ baseURL: `${url}/v1`, apiKey: key, model: 'm', name: 'gateway', label: 'My Gateway' });
    const error = await failure(turn(provider, { messages: [user('x')] }));
    expect(error.message).toContain('My Gateway request failed with HTTP 403');
    expect(error.message).not.toContain(key);
    expect(error.apiMessage).toBe('key [redacted] is not allowed');
  });

  it('scrubs credentials passed as headers too', async () => {
    const token = 'tok_9a8b7c6d5e4f3a2b';
    const { url } = await serve([{ status: 401, json: { message: `bad token ${token}` } }]);
    const provider = new OpenAICompatibleProvider({ baseURL: `${url}/v1`, model: 'm', headers: { Authorization: `Bearer ${token}` } });
    const error = await failure(turn(provider, { messages: [user('x')] }));
    expect(error.message).not.toContain(token);
    expect(server!.requests[0]!.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('says a model is needed when neither the request nor the provider names one', async () => {
    const provider = new OpenAICompatibleProvider({ baseURL: 'http://127.0.0.1:9/v1' });
    const error = await failure(turn(provider, { messages: [user('x')] }));
    expect(error).toMatchObject({ code: 'LOUSHO_INVALID_CONFIG' });
    expect(error.message).toContain('No model was given');
  });
});
