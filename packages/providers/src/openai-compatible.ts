/**
 * A streaming provider for any server that speaks the OpenAI Chat Completions API. OpenAIProvider,
 * OpenRouterProvider and OllamaProvider are this class with their own defaults; use it directly for
 * other compatible servers (vLLM, LM Studio, Groq, Together, a gateway, ...).
 */
import { throwIfAborted } from './abort.js';
import { readEventStream } from './event-stream.js';
import { OpenAIStreamDecoder } from './openai-stream.js';
import { toOpenAIRequest } from './openai-request.js';
import { postJson, type FetchFunction, type ProviderIdentity } from './transport.js';
import type { GenerateOptions, LLMProvider, StreamChunk } from '@lousho/protocol';
import { joinUrl, missingModel } from './wire.js';
import { checkOpenAICompatibleOptions } from './option-keys.js';
import type { OpenAICompatibleProviderOptions } from './provider-options.js';

export type { OpenAICompatibleProviderOptions } from './provider-options.js';

/**
 * A provider for any server that speaks the OpenAI Chat Completions API (vLLM, LM Studio, Groq,
 * a gateway, ...). HTTP failures become `LOUSHO_PROVIDER_HTTP_ERROR`, a missing model
 * `LOUSHO_INVALID_CONFIG`.
 */
export class OpenAICompatibleProvider implements LLMProvider {
  readonly name: string;
  readonly defaultModel: string | undefined;
  /** The API root requests go to. */
  readonly baseURL: string;
  readonly #apiKey: string | undefined;
  readonly #headers: Record<string, string>;
  readonly #fetch: FetchFunction | undefined;
  readonly #who: ProviderIdentity;
  readonly #settings: { maxTokensParameter: 'max_tokens' | 'max_completion_tokens'; includeUsage: boolean; label: string };

  constructor(options: OpenAICompatibleProviderOptions) {
    checkOpenAICompatibleOptions(options);
    this.name = options.name ?? 'openai-compatible';
    this.defaultModel = options.model;
    this.baseURL = options.baseURL;
    this.#apiKey = options.apiKey;
    this.#headers = { ...options.headers };
    this.#fetch = options.fetch;
    const label = options.label ?? this.name;
    this.#who = {
      provider: this.name,
      label,
      secrets: [options.apiKey, ...secretHeaderValues(options.headers)],
      ...(options.apiKeyVariable ? { credentialsHint: `${options.apiKeyVariable} or the apiKey option` } : {}),
    };
    this.#settings = {
      maxTokensParameter: options.maxTokensParameter ?? 'max_tokens',
      includeUsage: options.includeUsage ?? true,
      label,
    };
  }

  /** Runs one model call as a stream of chunks (text, tool calls, one `finish`); see `LLMProvider.stream`. */
  async *stream(options: GenerateOptions): AsyncGenerator<StreamChunk> {
    throwIfAborted(options.signal);
    const model = options.model ?? this.defaultModel;
    if (!model) throw missingModel(this.#who.label);
    const body = toOpenAIRequest(options, model, this.#settings);
    const headers: Record<string, string> = { ...this.#headers };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    const fetchFn = this.#fetch ?? ((input, init) => globalThis.fetch(input, init));
    const response = await postJson(this.#who, fetchFn, joinUrl(this.baseURL, 'chat/completions'), headers, body, options.signal);

    const decoder = new OpenAIStreamDecoder(this.#who);
    for await (const event of readEventStream(response, this.#who, options.signal)) {
      for (const chunk of decoder.decode(event)) yield chunk;
      if (decoder.done) break;
    }
    throwIfAborted(options.signal);
    yield decoder.end();
  }
}

/** Values of headers that carry credentials, so they are scrubbed from messages like the key. */
export function secretHeaderValues(headers: Record<string, string> | undefined): string[] {
  if (!headers) return [];
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (/authorization|api-key|token|secret/i.test(name)) {
      out.push(value);
      const bearer = /^bearer\s+(.+)$/i.exec(value);
      if (bearer?.[1]) out.push(bearer[1]);
    }
  }
  return out;
}
