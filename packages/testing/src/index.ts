// `@lousho/testing` (also `@lousho/core/testing` and `@lousho/build-ai-agent/testing`): deterministic providers for tests.
export {
  mockModel,
  MockModel,
  type MockModelCall,
  type MockModelOptions,
  type MockModelReply,
  type MockModelStep,
} from './mock-model.js';
export { createMockProvider, MockLLMProvider, type MockProviderOptions } from '@lousho/providers';
export type { MockResponse, MockToolCall } from '@lousho/providers';
export { MockProviderError, type MockProviderErrorCode } from '@lousho/providers';
export { recordReplay, RecordReplayProvider, type RecordReplayOptions, type Cassette, type CassetteInteraction, type CassetteLocation, type RecordedRequest } from './record-replay.js';
