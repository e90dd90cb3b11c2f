// Providers: the provider contract, turn assembly, cancellation helpers and the mock provider.
export type { JSONSchema, ToolSpec, ProviderUsage, ModelFinishReason, GenerateOptions, StreamChunk, GenerateResult, LLMProvider } from '@lousho/protocol';
export { generateFromStream, StreamAssembler } from './generate.js';
export { abortError, isAbortError, sleep, throwIfAborted } from './abort.js';
export { ProviderStreamError, MockProviderError, type MockProviderErrorCode } from './errors.js';
export { createMockProvider, MockLLMProvider, type MockProviderOptions } from './mock.js';
export type { MockResponse, MockToolCall } from './mock-response.js';

// Network providers (fetch + SSE: browser, worker and Node safe), their errors, and the helpers around them.
export { OpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './openai-compatible.js';
export { OpenAIProvider, type OpenAIProviderOptions } from './openai.js';
export { OpenRouterProvider, type OpenRouterProviderOptions } from './openrouter.js';
export { OllamaProvider, type OllamaProviderOptions } from './ollama.js';
export { AnthropicProvider, type AnthropicProviderOptions } from './anthropic.js';
export type { FetchFunction } from './transport.js';
export type { ProviderEnv } from './env.js';
export { PROVIDER_ERROR_CODES } from './codes.js';
export {
  ProviderHttpError,
  ProviderConnectionError,
  ProviderResponseError,
  type ProviderFailureInfo,
} from './http-error.js';
export {
  LLMProviderRegistry,
  resolveProvider,
  providerFromEnv,
  type ProviderFactory,
  type ProviderFactoryContext,
  type ResolveProviderOptions,
} from './registry.js';
export { withRetry, type RetryOptions } from './retry.js';
export { withFallback, AllProvidersFailedError, type FallbackOptions } from './fallback.js';
export { isRetryableError } from './retryable.js';
export {
  fromAISDKModel,
  type AISDKLanguageModel,
  type AISDKCallOptions,
  type AISDKStreamPart,
  type FromAISDKModelOptions,
} from './ai-sdk.js';
