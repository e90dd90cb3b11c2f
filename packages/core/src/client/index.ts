export { createAgentClient, createHttpAgentClient, createAgentClientWithTransport } from './create-agent-client.js';
export { createHttpTransport } from './http-transport.js';
export { createInProcessTransport } from './in-process-transport.js';
export { createLazyInProcessTransport } from './lazy-in-process-transport.js';
export { AgentClientError, CLIENT_ERROR_CODES, type ClientErrorCode } from './errors.js';
export type {
  AgentClient,
  AgentClientOptions,
  AgentClientSource,
  AgentClientInput,
  AgentActionResult,
  InProcessSource,
  HttpSource,
  LoushoInProcessSource,
  LoushoHttpSource,
  LoushoAgentSource,
  ClientAgent,
  ClientTransport,
  EventReader,
  ClientDecision,
  LoadedSession,
  SessionIdStorage,
} from './types.js';
