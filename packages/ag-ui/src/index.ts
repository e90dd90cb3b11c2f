export { createAgUiHandler, type AgUiAgent } from './handler.js';
export type { AgUiHandlerOptions } from './options.js';
export { AG_UI_EVENT_MAP, AG_UI_PRELUDE_EVENTS } from './event-map.js';
export { AgUiMapper, type LoushoRunState, type MapperOptions } from './mapper.js';
export { INTERRUPT_REASONS, interruptOf } from './interrupts.js';
export { createAiSdkHandler } from './ai-sdk/handler.js';
export { AiSdkMapper, type LoushoMessageMetadata, type UiChunk } from './ai-sdk/mapper.js';
export { AI_SDK_CHUNK_MAP, AI_SDK_PRELUDE_CHUNKS } from './ai-sdk/chunk-map.js';
