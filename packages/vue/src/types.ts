import type { MaybeRefOrGetter, ShallowRef } from 'vue';
import type {
  ToolPartFor,
  ToolsOf,
  AgentClient,
  AgentClientOptions,
  AgentUIState,
  AnyUIToolPart,
  ClientAgent,
  HttpSource,
  SessionIdStorage,
  UIMessage,
  UIToolPart,
} from '@lousho/client';

/** An agent running in this page (or test, or server script). `A` carries its tool types when it has them. */
export interface LoushoInProcessSource<A extends ClientAgent = ClientAgent> {
  agent: A;
  /** Continue this session (default: a new one, created on the first `send`). A ref or getter switches sessions when it changes. */
  sessionId?: MaybeRefOrGetter<string | undefined>;
}

/** An agent behind `createAgentHandler()`, reached over HTTP with the HTTP-only client. */
export interface LoushoHttpSource extends Omit<HttpSource, 'url' | 'sessionId'> {
  /** The handler's base URL. A ref or getter switches to the other server's session when it changes. */
  url: MaybeRefOrGetter<string>;
  /** Continue this session (default: the one in `storage`, else a new one on the first `send`). May be a ref or getter. */
  sessionId?: MaybeRefOrGetter<string | undefined>;
  /** Where to remember the session id across reloads (e.g. `sessionStorage`); same as the option. */
  storage?: SessionIdStorage;
  /** The key in `storage` (default `lousho:session:<url>`); same as the option. */
  storageKey?: string;
}

/** Defined once in @lousho/client, for every binding. */
export type { ToolPartFor, ToolsOf };

/**
 * What Vue's `useLoushoAgent()` takes: an agent in this process, or a handler's URL. Its session
 * id (and the URL) may be refs or getters: when they change, the composable follows the other session.
 */
export type LoushoAgentSource = LoushoInProcessSource | LoushoHttpSource;

/**
 * The client's options. `onEvent`, `onFinish` and `onError` are read from this object when they
 * are called; `throttleMs`, `storage` and `storageKey` when a client is made (on setup, or when the
 * session changes).
 */
export type UseLoushoAgentOptions = AgentClientOptions;

/** A ref the composable writes and the component only reads. */
export type ReadonlyShallowRef<T> = Readonly<ShallowRef<T>>;

/**
 * What `useLoushoAgent()` returns: the conversation as read-only shallow refs (use them in a
 * template as they are, or `.value` in script), and the actions as plain functions that always act
 * on the current session.
 */
export interface UseLoushoAgentResult<ToolPart extends AnyUIToolPart = UIToolPart> {
  /** The conversation. An update replaces only what changed: earlier messages keep their identity. */
  readonly messages: ReadonlyShallowRef<readonly UIMessage<ToolPart>[]>;
  readonly status: ReadonlyShallowRef<AgentUIState['status']>;
  readonly pendingApproval: ReadonlyShallowRef<AgentUIState['pendingApproval']>;
  readonly error: ReadonlyShallowRef<AgentUIState['error']>;
  readonly usage: ReadonlyShallowRef<AgentUIState['usage']>;
  readonly finishReason: ReadonlyShallowRef<AgentUIState['finishReason']>;
  /** With `finishReason: 'guardrail'`: which guardrail ended the run, at what stage, and why. */
  readonly guardrail: ReadonlyShallowRef<AgentUIState['guardrail']>;
  /** Messages sent while a turn ran, waiting (oldest first; undefined until one waited): show them as pending, with `unqueue(id)`. */
  readonly queued: ReadonlyShallowRef<AgentUIState['queued']>;
  /** The session's id, once there is one (given, restored from storage, or made by the first `send`). */
  readonly sessionId: ReadonlyShallowRef<string | undefined>;
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
