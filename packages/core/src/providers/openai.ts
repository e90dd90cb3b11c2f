/** OpenAI's Chat Completions API, streamed. */
import { providerEnv, readVar, type ProviderEnv } from './env.js';
import { OpenAICompatibleProvider } from './openai-compatible.js';
import type { FetchFunction } from './transport.js';
import { missingApiKey } from './wire.js';
import { checkOpenAIOptions } from './option-keys.js';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';

/** Options of `OpenAIProvider` (credentials default to `OPENAI_API_KEY`). */
export interface OpenAIProviderOptions {
  /** Default: the `OPENAI_API_KEY` environment variable. Required unless `baseURL` points elsewhere. */
  apiKey?: string;
  /** Default: `OPENAI_BASE_URL`, else `https://api.openai.com/v1`. */
  baseURL?: string;
  /** The model used when a request names none (default `gpt-4o-mini`). */
  model?: string;
  /** Sent as `OpenAI-Organization` (default: `OPENAI_ORG_ID`). */
  organization?: string;
  /** Sent as `OpenAI-Project` (default: `OPENAI_PROJECT_ID`). */
  project?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** The `fetch` to use (default: the global one). */
  fetch?: FetchFunction;
  /** Where the defaults above are read from (default: `process.env` when there is one). */
  env?: ProviderEnv;
}

/**
 * Streams OpenAI chat models: text, tool calls (several per turn, arguments in pieces), usage with
 * cached and reasoning tokens, images and PDFs on user messages, and JSON output via
 * `response_format`.
 */
export class OpenAIProvider extends OpenAICompatibleProvider {
  constructor(options: OpenAIProviderOptions = {}) {
    checkOpenAIOptions(options);
    const env = providerEnv(options.env);
    const apiKey = options.apiKey ?? readVar(env, 'OPENAI_API_KEY');
    const baseURL = options.baseURL ?? readVar(env, 'OPENAI_BASE_URL') ?? OPENAI_BASE_URL;
    if (!apiKey && baseURL === OPENAI_BASE_URL) throw missingApiKey('OpenAI', 'OPENAI_API_KEY');
    const organization = options.organization ?? readVar(env, 'OPENAI_ORG_ID');
    const project = options.project ?? readVar(env, 'OPENAI_PROJECT_ID');
    super({
      name: 'openai',
      label: 'OpenAI',
      baseURL,
      ...(apiKey ? { apiKey } : {}),
      model: options.model ?? OPENAI_DEFAULT_MODEL,
      headers: {
        ...(organization ? { 'OpenAI-Organization': organization } : {}),
        ...(project ? { 'OpenAI-Project': project } : {}),
        ...options.headers,
      },
      ...(options.fetch ? { fetch: options.fetch } : {}),
      // OpenAI deprecated `max_tokens`; reasoning models reject it.
      maxTokensParameter: 'max_completion_tokens',
      apiKeyVariable: 'OPENAI_API_KEY',
    });
  }
}
