import type { AgentStreamEventType } from '@lousho/core';

/**
 * Which AI SDK UI message stream chunks each Lousho stream event may become (the third column of
 * docs/ag-ui.md's mapping table; a test holds the two and the mapper to it). A sub-agent's events
 * become its tool calls' chunks, and its text a `data-subagent` part.
 */
export const AI_SDK_CHUNK_MAP = {
  'run.start': ['start'],
  'user.message': [],
  'step.start': ['start-step'],
  'text.delta': ['text-start', 'text-delta', 'data-subagent'],
  'reasoning.delta': ['reasoning-start', 'reasoning-delta'],
  'tool.input.start': ['tool-input-start'],
  'tool.input.delta': ['tool-input-delta'],
  'tool.call': ['tool-input-available'],
  'tool.progress': ['data-tool-progress'],
  'tool.done': ['tool-output-available'],
  'tool.error': ['tool-input-error', 'tool-output-denied', 'tool-output-error'],
  'approval.requested': ['tool-approval-request', 'data-question'],
  'approval.resolved': [],
  'compaction.start': [],
  'compaction.done': ['data-compaction'],
  'step.done': ['finish-step'],
  'run.done': ['abort', 'finish'],
  error: ['error'],
  'run.interrupted': [],
  'message.queued': [],
  'message.unqueued': [],
  'flow.node.start': ['data-flow-node'],
  'flow.node.event': [],
  'flow.node.done': ['data-flow-node'],
  'flow.node.error': ['data-flow-node'],
  'flow.branch': [],
} as const satisfies Record<AgentStreamEventType, readonly string[]>;

/** What any event may send before its own row: closing the open text or reasoning part. */
export const AI_SDK_PRELUDE_CHUNKS = ['text-end', 'reasoning-end'] as const;
