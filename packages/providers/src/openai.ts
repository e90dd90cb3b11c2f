/** OpenAI's Chat Completions API, streamed. */
import { providerEnv, readVar } from './env.js';
import { OpenAICompatibleProvider } from './openai-compatible.js';
import { missingApiKey } from './wire.js';
import { checkOpenAIOptions } from './option-keys.js';
import type { OpenAIProviderOptions } from './provider-options.js';

export type { OpenAIProviderOptions } from './provider-options.js';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';

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
