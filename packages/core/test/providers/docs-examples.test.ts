/** The examples of docs/providers.md, run against the package root. */
import { describe, expect, it } from 'vitest';
import {
  LLMProviderRegistry,
  OpenAICompatibleProvider,
  createAgent,
  createMockProvider,
  providerFromEnv,
  resolveProvider,
  withFallback,
  withRetry,
} from '../../src/index.js';

describe('docs/providers.md examples', () => {
  it('registers an OpenAI-compatible provider and resolves it by name', () => {
    LLMProviderRegistry.default.register('groq', ({ model, env }) =>
      new OpenAICompatibleProvider({
        name: 'groq',
        label: 'Groq',
        baseURL: 'https://api.groq.com/openai/v1',
        apiKey: env.GROQ_API_KEY,
        model,
      }),
    );
    const provider = resolveProvider('groq/llama-3.1-8b-instant', { env: { GROQ_API_KEY: 'gsk_test' } });
    expect(provider).toMatchObject({ name: 'groq', defaultModel: 'llama-3.1-8b-instant' });
  });

  it('falls back to the offline model when LOUSHO_MODEL is not configured', async () => {
    const real = providerFromEnv({});
    const agent = createAgent({ provider: real?.provider ?? createMockProvider(), ...(real ? { model: real.model } : {}) });
    expect((await agent.send('hello')).text).toContain('Mock response');
  });

  it('composes retry and fallback', () => {
    const env = { OPENAI_API_KEY: 'sk-doc-000000000000000', ANTHROPIC_API_KEY: 'sk-ant-doc-0000000000' };
    const provider = withFallback([
      withRetry(resolveProvider('openai/gpt-4o-mini', { env }), { retries: 2 }),
      resolveProvider('anthropic/claude-haiku-4-5', { env }),
    ]);
    expect(provider).toMatchObject({ name: 'openai', defaultModel: 'gpt-4o-mini' });
  });
});
