/** OpenRouter: one key, many vendors' models, behind an OpenAI-compatible API. */
import { providerEnv, readVar, type ProviderEnv } from './env.js';
import { OpenAICompatibleProvider } from './openai-compatible.js';
import type { FetchFunction } from './transport.js';
import { missingApiKey } from './wire.js';
import { checkOpenRouterOptions } from './option-keys.js';

export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';
export const OPENROUTER_DEFAULT_MODEL = 'openai/gpt-4o-mini';

/** Options of `OpenRouterProvider` (credentials default to `OPENROUTER_API_KEY`). */
export interface OpenRouterProviderOptions {
  /** Default: the `OPENROUTER_API_KEY` environment variable (required). */
  apiKey?: string;
  /** Default: `https://openrouter.ai/api/v1`. */
  baseURL?: string;
  /** An OpenRouter model id such as `anthropic/claude-3.5-sonnet` (default `openai/gpt-4o-mini`). */
  model?: string;
  /** Your site, sent as `HTTP-Referer` so OpenRouter can attribute usage to your app. */
  appUrl?: string;
  /** Your app's name, sent as `X-Title`. */
  appName?: string;
  headers?: Record<string, string>;
  fetch?: FetchFunction;
  env?: ProviderEnv;
}

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
