import type { AgentStreamEvent, AgentUIState, AttachmentPart, ClientAgent, ContentPart, FinishReason, SerializedError } from '@lousho/protocol';

/** What a user sends: text, or content parts (text, images, files). */
export type AgentClientInput = string | ContentPart[];

/** The agent runs in this process (a page with its own agent, a server script, a test). */
export interface InProcessSource {
  agent: ClientAgent;
  /** Continue this session (default: a new one, created on the first `send`). */
  sessionId?: string;
}

/** The agent runs behind `createAgentHandler()`. */
export interface HttpSource {
  /** The handler's base URL (e.g. `/api/agent` or `https://example.com/api/agent`). */
  url: string;
  /** Continue this session (default: the one in `storage`, else a new one on the first `send`). */
  sessionId?: string;
  /** Sent with every request (e.g. `authorization`); a function is called per request (fresh tokens). */
  headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>);
  /** A `fetch` to use instead of the global one (tests, proxies, credentials). */
  fetch?: typeof fetch;
}

/**
 * What `createAgentClient()` talks to: an agent in this process (`{ agent }`), or one behind
 * `createAgentHandler()` (`{ url }`). The `url` form is the one a browser bundle should use: only
 * the HTTP transport is loaded then.
 */
export type AgentClientSource = InProcessSource | HttpSource;

/**
 * The sources the React and Svelte bindings take (Vue's allow refs). In process, `A` carries the
 * agent's tool types when it has them; over HTTP, `storage` and `storageKey` may come with the source.
 */
export interface LoushoInProcessSource<A extends ClientAgent = ClientAgent> extends InProcessSource {
  agent: A;
}

/** An agent behind `createAgentHandler()`, reached over HTTP with the HTTP-only client. */
export interface LoushoHttpSource extends HttpSource {
  /** Where to remember the session id across reloads (e.g. `sessionStorage`, a cookie); same as the option. */
  storage?: SessionIdStorage;
  /** The key in `storage` (default `lousho:session:<url>`); same as the option. */
  storageKey?: string;
}

/**
 * What `useLoushoAgent()` takes in React and Svelte: an agent in this process, or a handler's URL
 * (which may carry `storage` and `storageKey` for remembering the session across reloads).
 */
export type LoushoAgentSource = LoushoInProcessSource | LoushoHttpSource;

/** The part of `Storage` (e.g. `sessionStorage`) the client uses to remember the session id. */
export interface SessionIdStorage {
  /** The remembered session id, or null when there is none. Read once, when the client is made (without a `sessionId`). */
  getItem(key: string): string | null;
  /** Remembers the session id, on each `send` and `open(id)`. A throw (quota, blocked storage) is ignored: nothing is remembered then. */
  setItem(key: string, value: string): void;
  /** Forgets the session id, on `reset()` (`open()` remembers the id it opens). */
  removeItem(key: string): void;
}

/**
 * The client's options. `onEvent`, `onFinish` and `onError` are read from this object each time
 * they are called, so they may be replaced after the client is made; the rest is read once.
 */
export interface AgentClientOptions {
  /** Each event the client applies (replayed duplicates are skipped). */
  onEvent?: (event: AgentStreamEvent) => void;
  /** A run leg ended with `run.done` (finished, paused for approval, stopped, ...). */
  onFinish?: (info: { state: AgentUIState; finishReason: FinishReason }) => void;
  /** Anything that went wrong: a failed run, an HTTP error, a broken stream, an action that was not possible. */
  onError?: (error: Error & { code: string }) => void;
  /**
   * Listeners are called at most once per this many ms while events stream (default 50; 0 calls
   * them on every event). `getSnapshot()` is always current; the end of a run leg notifies at once.
   */
  throttleMs?: number;
  /**
   * When the connection breaks while a run goes on, the client resumes the run's stream: at once,
   * then with capped exponential backoff (at once when the browser is back online), showing
   * `status: 'reconnecting'`. It gives up (`LOUSHO_NETWORK_ERROR` in `state.error`) once it has
   * not reached the server for this many ms (default 120,000: two minutes; `Infinity`: never).
   */
  reconnectTimeoutMs?: number;
  /** Where to remember the session id across page reloads (e.g. `sessionStorage`). Default: nowhere. */
  storage?: SessionIdStorage;
  /** The key in `storage` (default `lousho:session:<url>`, or `lousho:session` in process). */
  storageKey?: string;
  /**
   * Handlers of the agent's browser tools (tools defined without `execute`), by tool name: when the
   * run pauses on a call of one, the client runs it with the call's arguments and sends what it
   * returns (or the message of what it throws) with `submitToolResult`. Read when a call is run, so
   * it may change. A call of a tool without a handler waits for `submitToolResult` from the app.
   * The code that runs them loads on first use (docs/browser-tools.md).
   */
  browserTools?: BrowserToolHandlers;
}

/** What a browser tool's handler gets besides the arguments. */
export interface BrowserToolContext {
  /** The model's id of the call (what `submitToolResult` takes). */
  toolCallId: string;
}

/** Handlers of browser tools by tool name: `(args, ctx) => result` (or a promise of it). */
export type BrowserToolHandlers = Record<string, (args: any, ctx: BrowserToolContext) => unknown>;

/**
 * What an action resolves with (actions never reject): `ok` with how the run leg ended, or the
 * error that kept the action from happening or ended the run.
 */
export type AgentActionResult =
  | { ok: true; state: AgentUIState; finishReason: FinishReason | null }
  | { ok: false; state: AgentUIState; error: SerializedError };

/**
 * A conversation with an agent as a UI sees it: an immutable snapshot to render, a subscription
 * to be told when it changes, and the actions a person can take. Framework-neutral: the React,
 * Vue and Svelte bindings are thin layers over it.
 */
export interface AgentClient {
  /** The current state. The same object until something changes (safe for `useSyncExternalStore`). */
  getSnapshot(): AgentUIState;
  /** Calls `listener` when the state changes (throttled). The first subscriber also calls `start()`. */
  subscribe(listener: (state: AgentUIState) => void): () => void;
  /** Restores the session (once): its state, and the stream of a turn still running. Never rejects. */
  start(): Promise<void>;
  /**
   * Starts a turn; resolves when the run leg ends (done, paused for approval, stopped or failed).
   * While a turn runs, the message waits in the session's queue instead (`state.queued`; it runs
   * as the next turn when this one ends) or, with `mode: 'steer'`, joins the running turn at its
   * next step; either resolves once the server has it. `mode: 'turn'` keeps the old way: refused
   * with `LOUSHO_SESSION_BUSY` while a turn runs. Metadata goes with a queued message to its turn.
   */
  send(input: AgentClientInput, options?: SendOptions): Promise<AgentActionResult>;
  /**
   * Removes a message waiting in the queue (`state.queued[i].id`); resolves once the server has
   * removed it. `LOUSHO_QUEUED_MESSAGE_NOT_FOUND` when it is not waiting any more (sent, steered
   * in, removed), state unchanged.
   */
  unqueue(queueId: string): Promise<AgentActionResult>;
  /**
   * Stops the running turn on the server; resolves when it has ended. A stop request that fails
   * (e.g. while `reconnecting`) resolves with `ok: false` and leaves the state as it was.
   */
  stop(): Promise<AgentActionResult>;
  /**
   * Resumes a turn that was interrupted (its server process died or lost its database:
   * `finishReason: 'interrupted'`) from its last checkpoint; resolves when the resumed leg ends.
   * Refused (`LOUSHO_SESSION_NOT_RESUMABLE`, state unchanged) when nothing was interrupted.
   */
  resume(): Promise<AgentActionResult>;
  /** Runs the tool call the run is paused on; resolves when the continuation ends. */
  approve(note?: string): Promise<AgentActionResult>;
  /** Rejects the paused tool call (the note goes to the model); resolves when the continuation ends. */
  reject(note?: string): Promise<AgentActionResult>;
  /** Answers the question the run is paused on; resolves when the continuation ends. */
  answer(text: string): Promise<AgentActionResult>;
  /**
   * Sends the result of the browser tool call `toolCallId` the run is paused on (or, with
   * `{ error }`, the message of what failed in the page); resolves when the continuation ends. The
   * server checks `result` against the tool's `outputSchema`: `LOUSHO_INVALID_TOOL_OUTPUT` leaves the
   * call waiting. A call another tab answered first: `LOUSHO_APPROVAL_NOT_PENDING`.
   */
  submitToolResult(toolCallId: string, result: unknown, options?: { error?: string }): Promise<AgentActionResult>;
  /**
   * Uploads a file (a `File` from a picker, a drop or a paste, or any `Blob`) to the session
   * (creating it, as `send` does) and resolves with its `attachment` part: send it with text,
   * `send([{ type: 'text', text }, part])`. The server checks its size and type (413
   * `LOUSHO_FILE_TOO_LARGE`, 415 `LOUSHO_FILE_TYPE_REFUSED`); the code that uploads loads on first use.
   * Show it with `attachmentUrl(part, { url, sessionId })`.
   */
  upload(file: Blob, name?: string): Promise<AttachmentPart>;
  /** Starts a new, empty session (a new thread). A run of the old one is not stopped, only no longer followed. */
  reset(): void;
  /**
   * Switches to another session (a thread): its state, then its turn still running, followed live
   * from the last event read (nothing missed, nothing twice). The session left keeps running on the
   * server; opening it again picks it up. Actions waiting on the old one resolve with
   * `LOUSHO_CLIENT_DETACHED`; `storage` remembers the new id. Resolves once the session is restored
   * (an unknown id leaves the state empty: the first `send` creates it). Without an id, like `reset()`.
   */
  open(sessionId?: string): Promise<void>;
  /** The session id, once there is one (restored, given, or created by the first `send`). */
  readonly sessionId: string | undefined;
  /** Stops following, drops the listeners and timers. The server's run is not stopped. */
  destroy(): void;
}

/** Options of `client.send()`. */
export interface SendOptions {
  metadata?: Record<string, unknown>;
  /**
   * What a message sent while a turn runs does: `queue` (default) waits and runs as the next turn;
   * `steer` joins the running turn at its next step (the model sees it in its next call); `turn`
   * is refused with `LOUSHO_SESSION_BUSY`. With no turn running, each starts a turn.
   */
  mode?: 'queue' | 'steer' | 'turn';
}

/** A change to a session's queue, as `POST /sessions/:id/queue` takes it (docs/http.md). */
export type QueueChange = ({ input: AgentClientInput } & SendOptions) | { remove: string };

/** A person's decision on a pause. */
export type ClientDecision =
  | { kind: 'tool'; approved: boolean; note?: string }
  | { kind: 'question'; answer: string }
  | { kind: 'client'; toolCallId: string; result?: unknown; error?: string };

/** A session as a transport reads it. */
export interface LoadedSession {
  state: AgentUIState;
  /** A run leg is going on: follow its events after `state.lastSeq`. */
  running: boolean;
}

/**
 * Reads an opened stream, calling `onEvent` per event; resolves when it ends. With `merge`,
 * consecutive deltas of one part that arrive together may come as one merged delta
 * (`fromSeq`..`seq`): the client asks for that when nobody sees single events (no `onEvent`
 * option, notifications throttled).
 */
export type EventReader = (onEvent: (event: AgentStreamEvent) => void, merge?: boolean) => Promise<void>;

/**
 * How the client reaches an agent. Each streaming call resolves once the stream is open (so a
 * refused request rejects there), with a reader for its events. Aborting `signal` ends the reading
 * (quietly, or with an AbortError) and never stops the agent's run. Errors are `SDKError`s with a
 * stable `code` (a network failure may be a plain `TypeError`).
 */
export interface ClientTransport {
  /** The session's state, or undefined when the session does not exist. */
  load(sessionId: string, signal: AbortSignal): Promise<LoadedSession | undefined>;
  /** Starts a turn in the session (creating the session when it does not exist yet): its leg's events. */
  send(sessionId: string, input: AgentClientInput, metadata: Record<string, unknown> | undefined, signal: AbortSignal): Promise<EventReader>;
  /** Decides the approval `approvalId` the run is paused on (approve, reject or answer): the continuation's events. */
  decide(sessionId: string, approvalId: string, decision: ClientDecision, signal: AbortSignal): Promise<EventReader>;
  /** Events after `afterSeq`, then live ones until the leg ends. */
  follow(sessionId: string, afterSeq: number, signal: AbortSignal): Promise<EventReader>;
  /** Resumes the session's interrupted run (never taking over a run whose lease is held): its leg's events. */
  resume(sessionId: string, signal: AbortSignal): Promise<EventReader>;
  /** Changes the session's queue: adds a message (`mode` undefined: `queue`), or removes a waiting one. */
  queue(sessionId: string, change: QueueChange): Promise<unknown>;
  /**
   * Asks the server to stop the session's running turn, wherever it runs. Resolves true when a running
   * turn was found, false when none was; the stopped leg's last events arrive on the stream being read.
   */
  stop(sessionId: string): Promise<boolean>;
  /** Stores a file in the session (creating it): its attachment part. Without it, `client.upload()` rejects with `LOUSHO_FILES_UNSUPPORTED`. */
  upload?(sessionId: string, file: Blob, name: string | undefined): Promise<AttachmentPart>;
}
