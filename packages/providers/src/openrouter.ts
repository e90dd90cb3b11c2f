/** OpenRouter: one key, many vendors' models, behind an OpenAI-compatible API. */
import { providerEnv, readVar } from './env.js';
import { OpenAICompatibleProvider } from './openai-compatible.js';
import { missingApiKey } from './wire.js';
import { checkOpenRouterOptions } from './option-keys.js';
import type { OpenRouterProviderOptions } from './provider-options.js';

export type { OpenRouterProviderOptions } from './provider-options.js';

export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';
export const OPENROUTER_DEFAULT_MODEL = 'openai/gpt-4o-mini';

/** Streams any OpenRouter model; reasoning text (`delta.reasoning`) arrives as reasoning deltas. */
export class OpenRouterProvider extends OpenAICompatibleProvider {
  constructor(options: OpenRouterProviderOptions = {}) {
    checkOpenRouterOptions(options);
    const env = providerEnv(options.env);
    const apiKey = options.apiKey ?? readVar(env, 'OPENROUTER_API_KEY');
    if (!apiKey) throw missingApiKey('OpenRouter', 'OPENROUTER_API_KEY');
    super({
      name: 'openrouter',
      label: 'OpenRouter',
      baseURL: options.baseURL ?? OPENROUTER_BASE_URL,
      apiKey,
      model: options.model ?? OPENROUTER_DEFAULT_MODEL,
      headers: {
        ...(options.appUrl ? { 'HTTP-Referer': options.appUrl } : {}),
        ...(options.appName ? { 'X-Title': options.appName } : {}),
        ...options.headers,
      },
      ...(options.fetch ? { fetch: options.fetch } : {}),
      apiKeyVariable: 'OPENROUTER_API_KEY',
    });
  }
}
