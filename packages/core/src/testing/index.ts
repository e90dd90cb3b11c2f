// `@lousho/build-ai-agent/testing`: deterministic providers for tests.
export {
  mockModel,
  MockModel,
  type MockModelCall,
  type MockModelOptions,
  type MockModelReply,
  type MockModelStep,
} from './mock-model.js';
export { createMockProvider, MockLLMProvider, type MockProviderOptions } from '../providers/mock.js';
export type { MockResponse, MockToolCall } from '../providers/mock-response.js';
export { MockProviderError, type MockProviderErrorCode } from '../providers/errors.js';
export { recordReplay, RecordReplayProvider, type RecordReplayOptions, type Cassette, type CassetteInteraction, type CassetteLocation, type RecordedRequest } from './record-replay.js';
