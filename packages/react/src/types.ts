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
} from '@lousho/client';

/** Defined once in @lousho/client, for every binding. */
export type { LoushoAgentSource, LoushoHttpSource, LoushoInProcessSource, ToolPartFor, ToolsOf };

/**
 * The client's options. `onEvent`, `onFinish` and `onError` may change on every render: the latest
 * ones are called. `throttleMs` and `browserTools` are read when the client is made (on mount, or
 * when the session changes): a browser tool's handler reads what changes through a ref.
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
  /** Messages sent while a turn ran, waiting (oldest first; undefined until one waited): show them as pending, with `unqueue(id)`. */
  readonly queued?: AgentUIState['queued'];
  /** The session's id, once there is one (given, restored from storage, or made by the first `send`). */
  readonly sessionId: string | undefined;
  /** Sends a user message and streams the reply into `messages`; while a turn runs, it waits in `queued` (or, `{ mode: 'steer' }`, joins the turn). */
  readonly send: AgentClient['send'];
  /** Removes a message waiting in the queue (`queued[i].id`). */
  readonly unqueue: AgentClient['unqueue'];
  /** Stops the running turn; it ends with `finishReason: 'aborted'`. */
  readonly stop: AgentClient['stop'];
  /** Resumes a turn whose server process died or lost its database (`finishReason: 'interrupted'`): the "Resume" button. */
  readonly resume: AgentClient['resume'];
  /** Approves the pending tool call; the run continues. */
  readonly approve: AgentClient['approve'];
  /** Rejects the pending tool call (with an optional note the model sees); the run continues. */
  readonly reject: AgentClient['reject'];
  /** Answers the pending `ask_question`; the answer becomes the call's result. */
  readonly answer: AgentClient['answer'];
  /** Sends the result of the pending browser tool call (`state: 'awaiting-client'`); the server checks it against the tool's `outputSchema`. */
  readonly submitToolResult: AgentClient['submitToolResult'];
  /** Starts a new session (a new thread); the one left keeps running on the server. */
  readonly reset: AgentClient['reset'];
  /** Switches to another session (a thread): restored, and its running turn followed live; the one left keeps running. */
  readonly open: AgentClient['open'];
  /** Uploads a file to the session (413/415 past the server's limits) and resolves with the `attachment` part to send with `send([...])`. */
  readonly upload: AgentClient['upload'];
}
