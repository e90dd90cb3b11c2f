// The isomorphic root entry: nothing reachable from here may import a Node-only module.
// The transcript's messages, the error table and the event types live in @lousho/protocol (below both halves).
export * from '@lousho/protocol/messages';
export * from '@lousho/protocol/errors';
export type { AgentStreamEvent, AgentStreamEventType, AgentListenerEvent, UnsequencedStreamEvent, NestedStreamEvent, FinishReason, ApprovalKind, PendingApprovalInfo } from '@lousho/protocol';
// The model providers (@lousho/providers, below core).
export * from '@lousho/providers';
export * from './models/index.js';
export * from './usage/index.js';
export * from './tools/index.js';
export * from './tools/builtin/index.js';
export * from './hooks/index.js';
export * from './agent/index.js';
export * from './skills/index.js';
export * from './memory/index.js';
export * from './compaction/index.js';
export * from './spec/index.js';
export { UnknownOptionError } from '@lousho/protocol';
// The wire codec and the UI state (@lousho/protocol).
export * from '@lousho/protocol/codec';
export * from '@lousho/protocol/ui-state';
export * from './http/index.js';
export type { ReplayStore } from './stores/replay-store.js';
export * from './deploy/registry.js';
export * from './utils/index.js';
export * from './storage/index.js';
export * from './tracing/index.js';
export * from './guardrails/index.js';
export * from './files/index.js';
// How a command runs in a sandbox (the sandboxes and workspace tools are in @lousho/workspace).
export type { ExecOptions, ExecResult } from '@lousho/protocol';
