// The isomorphic root entry: nothing reachable from here may import a Node-only module.
export * from './messages.js';
export * from './errors.js';
export type { AgentStreamEvent, AgentStreamEventType, AgentListenerEvent, UnsequencedStreamEvent, FinishReason, ApprovalKind, PendingApprovalInfo } from './events/types.js';
export * from './providers/index.js';
export * from './models/index.js';
export * from './usage/index.js';
export * from './tools/index.js';
export * from './tools/builtin/index.js';
export * from './hooks/index.js';
export * from './agent/index.js';
export * from './protocol/index.js';
export * from './ui-state/index.js';
export * from './http/index.js';
export * from './client/index.js';
export * from './utils/index.js';
export * from './storage/index.js';
export * from './guardrails/index.js';
export * from './workspace/index.js';
