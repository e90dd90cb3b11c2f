// Moved to contracts/providers.ts (issue 46: contracts at the bottom); re-exported here until every importer takes it from there.
export type { JSONSchema, ToolSpec, ProviderUsage, ModelFinishReason, GenerateOptions, StreamChunk, GenerateResult, LLMProvider } from '../contracts/providers.js';
