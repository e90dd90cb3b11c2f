export { createAgentHandler, ANONYMOUS_PRINCIPAL, type AgentHandlerOptions, type HandlerAgent } from './handler.js';
export { HTTP_ERROR_CODES } from './errors.js';
export { SSE_CHUNK_BYTES } from './sse-response.js';
