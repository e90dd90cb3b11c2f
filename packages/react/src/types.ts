import type {
  LoushoAgentSource,
  LoushoHttpSource,
  LoushoInProcessSource,
  ToolPartFor,
  ToolsOf,
  AgentClient,
  AgentClientOptions,
  AgentUIState,
  AnyUIToolPart,
  UIMessage,
  UIToolPart,
} from '@lousho/core';

/** Defined once in core, for every binding. */
export type { LoushoAgentSource, LoushoHttpSource, LoushoInProcessSource, ToolPartFor, ToolsOf };

/**
 * The client's options. `onEvent`, `onFinish` and `onError` may change on every render: the latest
 * ones are called. `throttleMs` is read when the client is made (on mount, or when the session changes).
 */
export type UseLoushoAgentOptions = AgentClientOptions;

/** What `useLoushoAgent()` returns: the conversation as rendered now, and the actions (stable per session). */
export interface UseLoushoAgentResult<ToolPart extends AnyUIToolPart = UIToolPart> {
  /** The conversation. An update replaces only what changed: earlier messages keep their identity. */
  readonly messages: readonly UIMessage<ToolPart>[];
  readonly status: AgentUIState['status'];
  readonly pendingApproval: AgentUIState['pendingApproval'];
  readonly error: AgentUIState['error'];
  readonly usage: AgentUIState['usage'];
  readonly finishReason: AgentUIState['finishReason'];
  /** With `finishReason: 'guardrail'`: which guardrail ended the run, at what stage, and why. */
  readonly guardrail: AgentUIState['guardrail'];
  /** The session's id, once there is one (given, restored from storage, or made by the first `send`). */
  readonly sessionId: string | undefined;
  readonly send: AgentClient['send'];
  readonly stop: AgentClient['stop'];
  /** Resumes a turn whose server process died or lost its database (`finishReason: 'interrupted'`): the "Resume" button. */
  readonly resume: AgentClient['resume'];
  readonly approve: AgentClient['approve'];
  readonly reject: AgentClient['reject'];
  readonly answer: AgentClient['answer'];
  readonly reset: AgentClient['reset'];
}
