/**
 * Each built-in provider's constructor options, in one module below the providers and the option-key
 * tables that check them (option-keys.ts), so neither imports the other.
 */
import type { ProviderEnv } from './env.js';
import type { MockResponse } from './mock-response.js';
import type { FetchFunction } from './transport.js';

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

/** Options of `OllamaProvider` (the server defaults to `OLLAMA_HOST`, else localhost). */
export interface OllamaProviderOptions {
  /**
   * The Ollama server, with or without `/v1` (default: `OLLAMA_HOST`, else `http://localhost:11434`).
   * Like Ollama itself, a bare `host:port` gets `http://`, and a bare host gets port 11434.
   */
  host?: string;
  /** A model you have pulled, e.g. `llama3.2` or `qwen2.5:7b` (default `llama3.2`). */
  model?: string;
  /** Only for servers behind an authenticating proxy; Ollama itself needs none. */
  apiKey?: string;
  headers?: Record<string, string>;
  fetch?: FetchFunction;
  env?: ProviderEnv;
}

/** Options of `AnthropicProvider` (credentials default to `ANTHROPIC_API_KEY`). */
export interface AnthropicProviderOptions {
  /** Default: the `ANTHROPIC_API_KEY` environment variable. Required unless `baseURL` points elsewhere. */
  apiKey?: string;
  /** The API root, with or without `/v1` (default: `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`). */
  baseURL?: string;
  /** The model used when a request names none (default `claude-haiku-4-5`). */
  model?: string;
  /** `max_tokens` when the request sets none; the API requires one (default 4096). */
  maxTokens?: number;
  /** Sent as `anthropic-version` (default `2023-06-01`). */
  version?: string;
  /** Beta features to enable, sent as `anthropic-beta`. */
  betas?: string[];
  /**
   * Calling the API from a browser exposes the key to every visitor. Set this only when that is
   * intended (e.g. a user's own key in a local tool); it sends the header the API requires for CORS.
   */
  dangerouslyAllowBrowser?: boolean;
  headers?: Record<string, string>;
  fetch?: FetchFunction;
  env?: ProviderEnv;
}

/** Options of `OpenAICompatibleProvider`: where the server is, how to authenticate, its defaults. */
export interface OpenAICompatibleProviderOptions {
  /** The API root, up to and including `/v1` (e.g. `http://localhost:8000/v1`). */
  baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>`; leave unset for servers that need none. */
  apiKey?: string;
  /** The model used when a request names none. */
  model?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** The `fetch` to use (default: the global one). */
  fetch?: FetchFunction;
  /** The provider's name (default `openai-compatible`). */
  name?: string;
  /** How errors name the provider (default: the name). */
  label?: string;
  /** The request field for `maxTokens` (default `max_tokens`, which compatible servers know). */
  maxTokensParameter?: 'max_tokens' | 'max_completion_tokens';
  /** Ask for token usage at the end of the stream (default true). */
  includeUsage?: boolean;
  /** Where the key comes from, named in the hint of a 401 (e.g. `OPENAI_API_KEY`). */
  apiKeyVariable?: string;
}

/** Options of `createMockProvider()`: scripted replies, and how fast they stream. */
export interface MockProviderOptions {
  /**
   * Replies to give, one per request, starting over after the last. Without it every request is
   * answered with `Mock response to: "<last user message>"`.
   */
  responses?: (string | MockResponse)[];
  /** Wait before each streamed chunk, in ms (default 0). */
  delayMs?: number;
  /** Characters per streamed chunk (default: word by word). */
  chunkSize?: number;
  /** The model name it reports as its default (default `mock-model`). */
  model?: string;
}
