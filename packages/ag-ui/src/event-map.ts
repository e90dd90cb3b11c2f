import type { AgentStreamEventType } from '@lousho/core';

/**
 * Which AG-UI events each Lousho stream event may become (docs/ag-ui.md prints this table, and a
 * test holds the two and the mapper to it). An empty list: the event has no AG-UI counterpart and
 * is not sent, for the reason docs/ag-ui.md gives.
 */
export const AG_UI_EVENT_MAP = {
  'run.start': ['RUN_STARTED', 'MESSAGES_SNAPSHOT', 'STATE_SNAPSHOT'],
  'user.message': [],
  'step.start': ['STEP_STARTED'],
  'text.delta': ['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT'],
  'reasoning.delta': ['REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT'],
  'tool.input.start': ['TOOL_CALL_START'],
  'tool.input.delta': ['TOOL_CALL_ARGS'],
  'tool.call': ['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END'],
  'tool.progress': ['STATE_DELTA'],
  'tool.done': ['TOOL_CALL_END', 'TOOL_CALL_RESULT', 'SUBAGENT_FINISHED'],
  'tool.error': ['TOOL_CALL_END', 'TOOL_CALL_RESULT', 'SUBAGENT_ERROR'],
  'approval.requested': [],
  'approval.resolved': ['CUSTOM'],
  'compaction.start': ['CUSTOM'],
  'compaction.done': ['CUSTOM'],
  'step.done': ['STEP_STARTED', 'STEP_FINISHED', 'STATE_SNAPSHOT'],
  'run.done': ['SUBAGENT_FINISHED', 'TOOL_CALL_END', 'STEP_FINISHED', 'MESSAGES_SNAPSHOT', 'STATE_SNAPSHOT', 'RUN_FINISHED'],
  error: ['TOOL_CALL_END', 'STEP_FINISHED', 'SUBAGENT_ERROR', 'RUN_ERROR'],
  'run.interrupted': [],
  'message.queued': ['CUSTOM'],
  'message.unqueued': ['CUSTOM'],
  'flow.node.start': ['STEP_STARTED'],
  'flow.node.event': ['CUSTOM'],
  'flow.node.done': ['STEP_STARTED', 'STEP_FINISHED'],
  'flow.node.error': ['STEP_STARTED', 'STEP_FINISHED', 'CUSTOM'],
  'flow.branch': ['CUSTOM'],
} as const satisfies Record<AgentStreamEventType, readonly string[]>;

/** What any event may send before its own row: closing its scope's open text or reasoning message, opening a sub-agent. */
export const AG_UI_PRELUDE_EVENTS = ['TEXT_MESSAGE_END', 'REASONING_MESSAGE_END', 'REASONING_END', 'SUBAGENT_STARTED'] as const;
