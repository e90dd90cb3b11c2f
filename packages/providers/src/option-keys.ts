/**
 * Each provider's options as runtime lists, so a misspelt or foreign option (`new OllamaProvider({
 * baseURL })`) is refused with a did-you-mean instead of being silently ignored, as `createAgent`'s are.
 */
import { checkOptionKeys, type OptionAliases, type OptionKeys } from '@lousho/protocol';
import type { AnthropicProviderOptions, MockProviderOptions, OllamaProviderOptions, OpenAICompatibleProviderOptions, OpenAIProviderOptions, OpenRouterProviderOptions } from './provider-options.js';

const COMMON = { model: true, headers: true, fetch: true } as const;

const OPENAI_KEYS: OptionKeys<OpenAIProviderOptions> = { ...COMMON, apiKey: true, baseURL: true, organization: true, project: true, env: true };
const OPENROUTER_KEYS: OptionKeys<OpenRouterProviderOptions> = { ...COMMON, apiKey: true, baseURL: true, appUrl: true, appName: true, env: true };
const OLLAMA_KEYS: OptionKeys<OllamaProviderOptions> = { ...COMMON, host: true, apiKey: true, env: true };
const ANTHROPIC_KEYS: OptionKeys<AnthropicProviderOptions> = {
  ...COMMON,
  apiKey: true,
  baseURL: true,
  maxTokens: true,
  version: true,
  betas: true,
  dangerouslyAllowBrowser: true,
  env: true,
};
const OPENAI_COMPATIBLE_KEYS: OptionKeys<OpenAICompatibleProviderOptions> = {
  ...COMMON,
  baseURL: true,
  apiKey: true,
  name: true,
  label: true,
  maxTokensParameter: true,
  includeUsage: true,
  apiKeyVariable: true,
};
const MOCK_KEYS: OptionKeys<MockProviderOptions> = { responses: true, delayMs: true, chunkSize: true, model: true };

/** Every other provider takes `baseURL`; Ollama, like Ollama itself, takes `host`. */
const OLLAMA_ALIASES: OptionAliases = { baseURL: 'host', baseUrl: 'host', url: 'host' };

export const checkOpenAIOptions = (options: unknown): void => checkOptionKeys('new OpenAIProvider()', options, OPENAI_KEYS);
export const checkOpenRouterOptions = (options: unknown): void => checkOptionKeys('new OpenRouterProvider()', options, OPENROUTER_KEYS);
export const checkOllamaOptions = (options: unknown): void => checkOptionKeys('new OllamaProvider()', options, OLLAMA_KEYS, {}, OLLAMA_ALIASES);
export const checkAnthropicOptions = (options: unknown): void => checkOptionKeys('new AnthropicProvider()', options, ANTHROPIC_KEYS);
export const checkOpenAICompatibleOptions = (options: unknown): void =>
  checkOptionKeys('new OpenAICompatibleProvider()', options, OPENAI_COMPATIBLE_KEYS);
export const checkMockProviderOptions = (options: unknown): void => checkOptionKeys('createMockProvider()', options, MOCK_KEYS);
