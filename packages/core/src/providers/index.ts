// Providers: the provider contract, turn assembly, cancellation helpers and the mock provider.
export type * from './types.js';
export { generateFromStream, StreamAssembler } from './generate.js';
export { abortError, isAbortError, sleep, throwIfAborted } from './abort.js';
export { ProviderStreamError, MockProviderError, type MockProviderErrorCode } from './errors.js';
export { createMockProvider, MockLLMProvider, type MockProviderOptions } from './mock.js';
export type { MockResponse, MockToolCall } from './mock-response.js';
