import { describe, expect, it } from 'vitest';
import {
  AnthropicProvider,
  createMockProvider,
  OllamaProvider,
  OpenAICompatibleProvider,
  OpenAIProvider,
  OpenRouterProvider,
  UnknownOptionError,
} from '../../src/index.js';

const env = { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', OPENROUTER_API_KEY: 'k' };

function refusal(make: () => unknown): UnknownOptionError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(UnknownOptionError);
    return error as UnknownOptionError;
  }
  throw new Error('the option was accepted');
}

describe('provider options are as strict as createAgent()', () => {
  it('refuses `baseURL` on OllamaProvider and points at `host`, instead of ignoring it', () => {
    const error = refusal(() => new OllamaProvider({ baseURL: 'http://gpu-box:11434' } as never));
    expect(error.code).toBe('LOUSHO_UNKNOWN_OPTION');
    expect(error.option).toBe('baseURL');
    expect(error.suggestion).toBe('host');
    expect(error.message).toContain('new OllamaProvider() has no option `baseURL`: did you mean `host`?');
  });

  it.each([
    ['OpenAIProvider', () => new OpenAIProvider({ env, baseUrl: 'x' } as never), 'baseUrl', 'baseURL'],
    ['AnthropicProvider', () => new AnthropicProvider({ env, maxToken: 5 } as never), 'maxToken', 'maxTokens'],
    ['OpenRouterProvider', () => new OpenRouterProvider({ env, appname: 'x' } as never), 'appname', 'appName'],
    ['OpenAICompatibleProvider', () => new OpenAICompatibleProvider({ baseURL: 'http://x/v1', includeUsages: false } as never), 'includeUsages', 'includeUsage'],
    ['createMockProvider', () => createMockProvider({ delay: 5 } as never), 'delay', undefined],
  ])('%s names a misspelt option and its closest match', (_name, make, option, suggestion) => {
    const error = refusal(make);
    expect(error.option).toBe(option);
    expect(error.suggestion).toBe(suggestion);
  });

  it('still takes every documented option', () => {
    expect(() => new OllamaProvider({ host: '127.0.0.1:11434', model: 'qwen2.5', apiKey: 'x', headers: {}, env: {} })).not.toThrow();
    expect(() => new OpenAIProvider({ env, baseURL: 'http://x/v1', organization: 'o', project: 'p', model: 'm', headers: {} })).not.toThrow();
    expect(() => new AnthropicProvider({ env, maxTokens: 10, version: 'v', betas: ['b'], dangerouslyAllowBrowser: true })).not.toThrow();
    expect(() => new OpenRouterProvider({ env, appUrl: 'https://a', appName: 'A' })).not.toThrow();
  });
});
