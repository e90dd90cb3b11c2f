/** Anthropic's Messages API, streamed. */
import { throwIfAborted } from './abort.js';
import { AnthropicStreamDecoder } from './anthropic-stream.js';
import { answerToolFor, toAnthropicRequest } from './anthropic-request.js';
import { providerEnv, readVar } from './env.js';
import { readEventStream } from './event-stream.js';
import { secretHeaderValues } from './openai-compatible.js';
import { postJson, type FetchFunction, type ProviderIdentity } from './transport.js';
import type { GenerateOptions, LLMProvider, StreamChunk } from '@lousho/protocol';
import { joinUrl, missingApiKey, missingModel } from './wire.js';
import { checkAnthropicOptions } from './option-keys.js';
import type { AnthropicProviderOptions } from './provider-options.js';

export type { AnthropicProviderOptions } from './provider-options.js';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_DEFAULT_MODEL = 'claude-haiku-4-5';
/** The API version this provider's wire format follows. */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Streams Claude models: text, thinking (as reasoning), tool calls (several per turn, arguments in
 * pieces), usage with cache reads, and images/PDFs on user messages.
 */
export class AnthropicProvider implements LLMProvider {
  readonly name = 'anthropic';
  readonly defaultModel: string;
  readonly baseURL: string;
  readonly #headers: Record<string, string>;
  readonly #fetch: FetchFunction | undefined;
  readonly #maxTokens: number;
  readonly #who: ProviderIdentity;

  constructor(options: AnthropicProviderOptions = {}) {
    checkAnthropicOptions(options);
    const env = providerEnv(options.env);
    const apiKey = options.apiKey ?? readVar(env, 'ANTHROPIC_API_KEY');
    this.baseURL = options.baseURL ?? readVar(env, 'ANTHROPIC_BASE_URL') ?? ANTHROPIC_BASE_URL;
    if (!apiKey && this.baseURL === ANTHROPIC_BASE_URL) throw missingApiKey('Anthropic', 'ANTHROPIC_API_KEY');
    this.defaultModel = options.model ?? ANTHROPIC_DEFAULT_MODEL;
    this.#maxTokens = options.maxTokens ?? 4096;
    this.#fetch = options.fetch;
    this.#headers = {
      'anthropic-version': options.version ?? ANTHROPIC_VERSION,
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
      ...(options.betas && options.betas.length > 0 ? { 'anthropic-beta': options.betas.join(',') } : {}),
      ...(options.dangerouslyAllowBrowser ? { 'anthropic-dangerous-direct-browser-access': 'true' } : {}),
      ...options.headers,
    };
    this.#who = {
      provider: this.name,
      label: 'Anthropic',
      secrets: [apiKey, ...secretHeaderValues(options.headers)],
      credentialsHint: 'ANTHROPIC_API_KEY or the apiKey option',
    };
  }

  /** Runs one model call as a stream of chunks (text, tool calls, one `finish`); see `LLMProvider.stream`. */
  async *stream(options: GenerateOptions): AsyncGenerator<StreamChunk> {
    throwIfAborted(options.signal);
    const model = options.model ?? this.defaultModel;
    if (!model) throw missingModel('Anthropic');
    const body = toAnthropicRequest(options, model, { defaultMaxTokens: this.#maxTokens });
    const fetchFn = this.#fetch ?? ((input, init) => globalThis.fetch(input, init));
    const response = await postJson(this.#who, fetchFn, joinUrl(this.baseURL.replace(/\/v1\/*$/, ''), 'v1/messages'), this.#headers, body, options.signal);

    const decoder = new AnthropicStreamDecoder(this.#who, answerToolFor(options));
    for await (const event of readEventStream(response, this.#who, options.signal)) {
      for (const chunk of decoder.decode(event)) yield chunk;
      if (decoder.done) break;
    }
    throwIfAborted(options.signal);
    yield decoder.end();
  }
}
