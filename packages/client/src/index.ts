// `@lousho/client`: the browser half of Lousho. The framework-neutral agent client and its transports
// (HTTP, in process), and, re-exported from `@lousho/protocol`, what a UI needs with it: the UI
// state and its reducer, and the protocol's reader. The React, Vue and Svelte bindings import this
// package alone.
export { createAgentClient, createHttpAgentClient, createAgentClientWithTransport } from './create-agent-client.js';
export { createHttpTransport } from './http-transport.js';
export { createInProcessTransport } from './in-process-transport.js';
export { createLazyInProcessTransport } from './lazy-in-process-transport.js';
export { AgentClientError } from './errors.js';
export { attachmentUrl } from './attachment-url.js';
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
  ClientTransport,
  EventReader,
  ClientDecision,
  LoadedSession,
  SendOptions,
  QueueChange,
  SessionIdStorage,
  BrowserToolHandlers,
  BrowserToolContext,
} from './types.js';

// From `@lousho/protocol` (below both halves: the HTTP handler uses the same).
export { CLIENT_ERROR_CODES, type ClientErrorCode, type ClientAgent, type AttachmentPart } from '@lousho/protocol';
// The UI state and its reducer.
export {
  reduceAgentEvents,
  initialAgentUIState,
  stateFromTranscript,
  type TranscriptStateOptions,
  type AgentUIState,
  type AgentUIStatus,
  type AnyUIToolPart,
  type UIMessage,
  type UIPart,
  type UITextPart,
  type UIReasoningPart,
  type UICompactionPart,
  type UIImagePart,
  type UIFilePart,
  type UIAttachmentPart,
  type UIToolPart,
  type UIToolPartOf,
  type ToolsOf,
  type ToolPartFor,
  type UIToolState,
  type UIToolApproval,
  type UIFlowNodePart,
  type UISubagent,
  type UISubagentStatus,
  type UIQueuedMessage,
} from '@lousho/protocol';
// The protocol's reader, and the events it yields.
export {
  PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  parseEventStream,
  createEventStreamDecoder,
  CodedError,
  EventStreamError,
  EVENT_STREAM_ERROR_CODES,
  type AgentEventStream,
  type EventStreamSource,
  type ParseEventStreamOptions,
  type EventStreamDecoder,
  type EventStreamDecoderOptions,
  type CodedErrorOptions,
  type EventStreamErrorCode,
  type EventStreamErrorOptions,
  type AgentStreamEvent,
  type FinishReason,
} from '@lousho/protocol';
