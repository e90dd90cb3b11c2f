import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AnthropicProvider,
  LLMProviderRegistry,
  OllamaProvider,
  OpenAIProvider,
  OpenRouterProvider,
  createMockProvider,
  providerFromEnv,
  resolveProvider,
  type ProviderFactoryContext,
} from '@lousho/providers';
import * as root from '../../src/index.js';
import { startFakeApi, type FakeApiServer } from '../../../providers/test/fake-api-server.js';
import { turn, user } from '../../../providers/test/helpers.js';
import { anthropicTextStream, openaiTextStream } from '../../../providers/test/wire-fixtures.js';

let server: FakeApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const env = {
  OPENAI_API_KEY: 'sk-openai-env-000000000000',
  ANTHROPIC_API_KEY: 'sk-ant-env-000000000000',
  OPENROUTER_API_KEY: 'sk-or-env-000000000000',
};

describe('resolveProvider', () => {
  it('builds each built-in provider from `provider/model`, with that model as its default', () => {
    const openai = resolveProvider('openai/gpt-4o-mini', { env });
    expect(openai).toBeInstanceOf(OpenAIProvider);
    expect(openai).toMatchObject({ name: 'openai', defaultModel: 'gpt-4o-mini' });
    expect(resolveProvider('anthropic/claude-haiku-4-5', { env })).toBeInstanceOf(AnthropicProvider);
    const routed = resolveProvider('openrouter/anthropic/claude-3.5-sonnet', { env });
    expect(routed).toBeInstanceOf(OpenRouterProvider);
    expect(routed.defaultModel).toBe('anthropic/claude-3.5-sonnet');
    const local = resolveProvider('ollama/llama3.2:3b', { env: { OLLAMA_HOST: '127.0.0.1:12345' } });
    expect(local).toBeInstanceOf(OllamaProvider);
    expect(local).toMatchObject({ defaultModel: 'llama3.2:3b', baseURL: 'http://127.0.0.1:12345/v1' });
  });

  it('accepts a bare provider name (its default model) and any letter case', () => {
    expect(resolveProvider('openai', { env }).defaultModel).toBe('gpt-4o-mini');
    expect(resolveProvider('OpenAI/gpt-4o', { env })).toMatchObject({ name: 'openai', defaultModel: 'gpt-4o' });
  });

  it.each([
    ['openai/gpt-4o-mini', 'OPENAI_API_KEY'],
    ['anthropic/claude-haiku-4-5', 'ANTHROPIC_API_KEY'],
    ['openrouter/openai/gpt-4o', 'OPENROUTER_API_KEY'],
  ])('for %s without credentials, throws an error naming %s', (model, variable) => {
    expect(() => resolveProvider(model, { env: {} })).toThrow(
      expect.objectContaining({ code: 'LOUSHO_MISSING_API_KEY', message: expect.stringContaining(variable) }),
    );
  });

  it('treats a blank variable as missing', () => {
    expect(() => resolveProvider('openai/gpt-4o', { env: { OPENAI_API_KEY: '  ' } })).toThrow(expect.objectContaining({ code: 'LOUSHO_MISSING_API_KEY' }));
  });

  it('needs no key for Ollama', () => {
    expect(() => resolveProvider('ollama/llama3.2', { env: {} })).not.toThrow();
  });

  it('lists the known providers when the name is unknown', () => {
    expect(() => resolveProvider('mistral/large', { env })).toThrow(
      expect.objectContaining({
        code: 'LOUSHO_UNKNOWN_PROVIDER',
        message: expect.stringContaining('Known providers: anthropic, ollama, openai, openrouter'),
      }),
    );
  });

  it('suggests the known provider a typo is closest to', () => {
    expect(() => resolveProvider('opnai/gpt-4o-mini', { env })).toThrow(
      'Unknown provider "opnai" in model string "opnai/gpt-4o-mini": did you mean "openai"? Known providers: anthropic, ollama, openai, openrouter.',
    );
    expect(() => resolveProvider('mistral/large', { env })).toThrow(/"mistral\/large"\. Known providers/);
  });

  it.each(['', '/gpt-4o', 'openai/'])('rejects the malformed model string %j', (model) => {
    expect(() => resolveProvider(model, { env })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });

  it('reads process.env by default', () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-from-process-0000000';
    try {
      expect(resolveProvider('anthropic/claude-haiku-4-5')).toBeInstanceOf(AnthropicProvider);
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  it('works without any `process` (browsers): no env means no key', () => {
    const saved = globalThis.process;
    let error: unknown;
    try {
      (globalThis as { process?: unknown }).process = undefined;
      try {
        resolveProvider('openai/gpt-4o-mini');
      } catch (err) {
        error = err;
      }
    } finally {
      globalThis.process = saved;
    }
    expect(error).toMatchObject({ code: 'LOUSHO_MISSING_API_KEY' });
  });

  it('returns a working provider: base URL and key from the environment reach the server', async () => {
    server = await startFakeApi([{ sse: openaiTextStream(['from env']) }, { sse: anthropicTextStream(['claude']) }]);
    const openai = resolveProvider('openai/gpt-4o-mini', { env: { OPENAI_API_KEY: 'sk-e2e-1111111111111111', OPENAI_BASE_URL: `${server.url}/v1` } });
    expect((await turn(openai, { messages: [user('hi')] })).text).toBe('from env');
    const anthropic = resolveProvider('anthropic/claude-sonnet-4-5', { env: { ANTHROPIC_API_KEY: 'sk-ant-e2e-22222222222', ANTHROPIC_BASE_URL: server.url } });
    expect((await turn(anthropic, { messages: [user('hi')] })).text).toBe('claude');
    expect(server.requests.map((r) => [r.path, r.body.model])).toEqual([
      ['/v1/chat/completions', 'gpt-4o-mini'],
      ['/v1/messages', 'claude-sonnet-4-5'],
    ]);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-e2e-1111111111111111');
    expect(server.requests[1]!.headers['x-api-key']).toBe('sk-ant-e2e-22222222222');
  });
});

describe('LLMProviderRegistry', () => {
  it('starts with the built-ins, or empty on request', () => {
    expect(new LLMProviderRegistry().names()).toEqual(['anthropic', 'ollama', 'openai', 'openrouter']);
    const empty = new LLMProviderRegistry({ builtins: false });
    expect(empty.has('openai')).toBe(false);
    expect(() => empty.create('openai/gpt-4o', { env })).toThrow(expect.objectContaining({ message: expect.stringContaining('Known providers: (none)') }));
  });

  it('registers a factory that receives the model and the environment', () => {
    const seen: ProviderFactoryContext[] = [];
    const registry = new LLMProviderRegistry().register('Groq', (context) => {
      seen.push(context);
      return createMockProvider({ model: context.model ?? 'default' });
    });
    expect(registry.has('groq')).toBe(true);
    expect(registry.has('GROQ')).toBe(true);
    const provider = registry.create('groq/llama-3.1-8b-instant', { env: { GROQ_API_KEY: 'k' } });
    expect(provider.defaultModel).toBe('llama-3.1-8b-instant');
    expect(seen[0]).toEqual({ model: 'llama-3.1-8b-instant', env: { GROQ_API_KEY: 'k' } });
  });

  it('lets a registration replace a built-in', () => {
    const registry = new LLMProviderRegistry().register('openai', () => createMockProvider({ model: 'stand-in' }));
    expect(registry.create('openai/gpt-4o', { env: {} }).defaultModel).toBe('stand-in');
  });

  it('rejects names with a slash or spaces, and factories that are not functions', () => {
    const registry = new LLMProviderRegistry();
    expect(() => registry.register('my/provider', () => createMockProvider())).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => registry.register('my provider', () => createMockProvider())).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => registry.register('ok', 'nope' as never)).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });

  it('makes providers registered on the default registry resolvable by resolveProvider', () => {
    LLMProviderRegistry.default.register('test-local-llm', ({ model }) => createMockProvider({ model: model ?? 'x' }));
    expect(resolveProvider('test-local-llm/tiny').defaultModel).toBe('tiny');
  });
});

describe('providerFromEnv', () => {
  it('is undefined when LOUSHO_MODEL is unset, or when its key is missing', () => {
    expect(providerFromEnv({})).toBeUndefined();
    expect(providerFromEnv({ LOUSHO_MODEL: 'openai/gpt-4o-mini' })).toBeUndefined();
    expect(providerFromEnv({ LOUSHO_MODEL: 'anthropic/claude-haiku-4-5', OPENAI_API_KEY: 'sk-wrong-provider-key-000' })).toBeUndefined();
  });

  it('returns the provider and the bare model id when LOUSHO_MODEL and its key are set', () => {
    const picked = providerFromEnv({ LOUSHO_MODEL: 'openai/gpt-4o-mini', OPENAI_API_KEY: 'sk-test-000000000000000' });
    expect(picked?.provider).toBeInstanceOf(OpenAIProvider);
    expect(picked?.model).toBe('gpt-4o-mini');
    expect(providerFromEnv({ LOUSHO_MODEL: 'openrouter/meta-llama/llama-3.1-8b-instruct', OPENROUTER_API_KEY: 'k-123456' })?.model).toBe(
      'meta-llama/llama-3.1-8b-instruct',
    );
    expect(providerFromEnv({ LOUSHO_MODEL: 'ollama/llama3.2' })?.provider).toBeInstanceOf(OllamaProvider);
  });

  it('throws for a typo instead of silently staying offline', () => {
    expect(() => providerFromEnv({ LOUSHO_MODEL: 'opneai/gpt-4o-mini', OPENAI_API_KEY: 'sk-test-000000000000000' })).toThrow(
      expect.objectContaining({ code: 'LOUSHO_UNKNOWN_PROVIDER' }),
    );
  });
});

describe('exports and browser safety', () => {
  it('exports the provider API from the package root', () => {
    for (const name of ['resolveProvider', 'providerFromEnv', 'LLMProviderRegistry', 'OpenAIProvider', 'AnthropicProvider', 'OllamaProvider', 'OpenRouterProvider', 'withRetry', 'withFallback', 'ProviderHttpError', 'createMockProvider', 'textOf']) {
      expect(root, name).toHaveProperty(name);
    }
  });

  it('imports no node:* module anywhere under src/ of @lousho/providers', () => {
    const dir = fileURLToPath(new URL('../../../providers/src/', import.meta.url));
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(`${dir}${file}`, 'utf8');
      expect(source, file).not.toMatch(/from\s+['"]node:|require\(['"]node:|import\(['"]node:/);
    }
  });
});
