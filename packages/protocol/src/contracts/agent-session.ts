import type { AgentStreamEvent, FinishReason, PendingApprovalInfo, SendMode } from './events.js';
import type { AgentInput, ContentPart, Message } from './messages.js';
import type { BudgetExceeded } from './budget.js';
import type { GuardrailInfo } from './guardrails.js';
import type { ToolCallRecord } from './run-snapshot.js';
import type { SessionPage, SessionStatus } from './stores.js';
import type { TraceParent } from './tracing.js';
import type { RunUsage, StepUsage } from './usage.js';
import type { FileStore } from './files.js';

/** A call waiting for a decision, as `approve` and `approvals.list()` see it. */
export interface ApprovalRequest extends PendingApprovalInfo {
  sessionId: string;
  runId: string;
}

/** Per-call options of `send()` and `stream()`. */
export interface RunOptions {
  /** Stops the run: it resolves with `finishReason: 'aborted'` (it does not reject). */
  signal?: AbortSignal;
  /** Continue (or start) this session; without it every call is a new conversation. */
  sessionId?: string;
  /** Passed to dynamic config functions as `ctx.metadata` (tenant, role, ...). */
  metadata?: Record<string, unknown>;
  /**
   * The span this run nests under, with its exporter (used when the agent has no `traceExporter`
   * of its own): a tool's `ctx.trace` for a run inside a tool call, or the `trace` of `withSpan()`.
   */
  traceParent?: TraceParent;
}

/**
 * How a run ended: what `send()`, `AgentExecutor.execute()` and a stream's `result` resolve with.
 * A run that was stopped, paused or ran out of steps resolves too; read `finishReason`.
 */
export interface ExecutionResult<TObject = unknown> {
  runId: string;
  sessionId: string;
  /** The final assistant text of the run (raw JSON with `output`). */
  text: string;
  /** The whole transcript after the run (no system prompt). */
  messages: Message[];
  /** Model calls taken, including steps carried over from before an approval pause. */
  steps: number;
  finishReason: FinishReason;
  usage: RunUsage;
  stepUsage: StepUsage[];
  /** Tool calls finished in this run, in the model's call order. */
  toolCalls: ToolCallRecord[];
  /** Set when the run paused (`finishReason: 'awaiting-approval'`). */
  approvalId?: string;
  pendingApproval?: PendingApprovalInfo;
  /** With `output`: the validated object. */
  object?: TObject;
  outputError?: { message: string; issues: { path: string; message: string }[] };
  /** Set when a `limits` budget ended the run (`finishReason: 'budget-exceeded'`): which one, its value, what was used. */
  budget?: BudgetExceeded;
  /** Set when a guardrail ended the run (`finishReason: 'guardrail'`): which, at what stage, and why. */
  guardrail?: GuardrailInfo;
}

/** A streaming run: iterate its events; `result` settles when the run ends. */
export interface AgentRun<TObject = unknown> extends AsyncIterable<AgentStreamEvent> {
  readonly runId: string;
  readonly sessionId: string;
  readonly result: Promise<ExecutionResult<TObject>>;
}

/** Receives each event of a session, as `agent.sessions.subscribe()` delivers it. */
export type SessionListener = (event: AgentStreamEvent) => void;

/** What the UI layer and the HTTP handler read of a session. */
export interface SessionState {
  id: string;
  messages: readonly Message[];
  status: SessionStatus;
  pendingApproval: PendingApprovalInfo | null;
  lastSeq: number;
  /**
   * How many of `messages` came before the events `eventsAfter(id, 0)` holds: 0 for a session
   * whose every run was logged (the log keeps them all); more for one whose older runs were logged
   * by a version that kept only the latest run's events. A UI rebuilds its state from
   * `messages.slice(0, runStartIndex)` plus those events (see docs/events.md, "Rebuilding a session").
   */
  runStartIndex: number;
  /** The principal that owns the session (set by the HTTP handler), if any. */
  owner?: string;
}

/**
 * `agent.approvals`: the tool calls (and `ask_question` calls) a run paused on, and the way to
 * decide them. Deciding an id that is unknown or already decided rejects with
 * `LOUSHO_APPROVAL_NOT_FOUND` / `LOUSHO_APPROVAL_NOT_PENDING`.
 */
export interface AgentApprovals<TObject = unknown> {
  /** Pending approvals (optionally of one session), oldest first. */
  list(filter?: { sessionId?: string }): Promise<ApprovalRequest[]>;
  /** Runs (approved) or rejects the paused call and resolves with the continued run. */
  resolve(decision: { id: string; approved: boolean; note?: string }, options?: { signal?: AbortSignal }): Promise<ExecutionResult<TObject>>;
  /** Answers an `ask_question` pause; the answer becomes the call's result. */
  answer(decision: { id: string; answer: string }, options?: { signal?: AbortSignal }): Promise<ExecutionResult<TObject>>;
  /** Like `resolve`, but returns the continuation as a stream. */
  resolveStream(decision: { id: string; approved: boolean; note?: string }, options?: { signal?: AbortSignal }): Promise<AgentRun<TObject>>;
  /** Like `answer`, but returns the continuation as a stream. */
  answerStream(decision: { id: string; answer: string }, options?: { signal?: AbortSignal }): Promise<AgentRun<TObject>>;
  /**
   * Ends a browser tool's paused call (`kind: 'client'`) with the page's `result`, checked against
   * the tool's `outputSchema` first (`LOUSHO_INVALID_TOOL_OUTPUT`, nothing recorded, when it does not
   * match), or with `error`, the message of what failed in the page (the call's `execution` error).
   * With `toolCallId`, refused (`LOUSHO_APPROVAL_NOT_FOUND`) unless the approval waits on that call.
   */
  submitToolResult(decision: { id: string; result?: unknown; error?: string; toolCallId?: string }, options?: { signal?: AbortSignal }): Promise<ExecutionResult<TObject>>;
  /** Like `submitToolResult`, but returns the continuation as a stream. */
  submitToolResultStream(decision: { id: string; result?: unknown; error?: string; toolCallId?: string }, options?: { signal?: AbortSignal }): Promise<AgentRun<TObject>>;
}

/** Session access for UI clients and the HTTP handler. */
export interface AgentSessions {
  /** The session's state, or undefined if this agent has never seen it. */
  get(id: string): SessionState | undefined;
  /**
   * The session's logged events with `seq > afterSeq` (what a reconnecting stream missed; the log
   * keeps every run); at most `limit` of them when given (the next page starts after the last one's `seq`).
   */
  eventsAfter(id: string, afterSeq: number, limit?: number): AgentStreamEvent[];
  /** Follow a session's events as they happen. */
  subscribe(id: string, listener: SessionListener): () => void;
  /** Stops the session's running turn in this process, whoever started it. True if something was running here. */
  stop(id: string): boolean;
  /**
   * Stops the session's running turn wherever it runs: here (like `stop`), or, with a store that
   * has signals (PostgreSQL), in the process that holds the session's lease, which aborts it.
   * True when a running turn was found (here, or in the store: leased and running).
   */
  requestStop(id: string): Promise<boolean>;
  /**
   * Reads the session from the agent's store into this process (after a restart, or when another
   * process changed it) and returns its state; `get`, `eventsAfter` and `subscribe` then see it.
   * Undefined when neither the store nor this process knows the session.
   */
  load(id: string): Promise<SessionState | undefined>;
  /** Creates the session in the store, owned by `owner`, unless it exists. True if it was created. */
  create(id: string, options?: { owner?: string }): Promise<boolean>;
  /**
   * A page of the store's sessions for a thread list, newest activity first (see
   * `SessionStore.listPage`); `owner` keeps one principal's. `limit` 1 to 100 (default 20). A
   * `running` session whose lease ran out (its process died) is listed `interrupted`.
   * `LOUSHO_SESSION_LIST_UNSUPPORTED` when the store cannot list pages. Optional: agents made by
   * `createAgent()` have it.
   */
  list?(options?: { owner?: string; cursor?: string; limit?: number }): Promise<SessionPage>;
  /**
   * Sets a session's title (trimmed, 1 to 100 characters, else `LOUSHO_SESSION_TITLE_INVALID`).
   * With `owner`, another principal's session is `LOUSHO_SESSION_NOT_FOUND` like an unknown one.
   */
  rename?(id: string, title: string, options?: { owner?: string }): Promise<void>;
  /**
   * Deletes a session: its record, event log, checkpoint and approvals in the store, and this
   * process's copy. A session running a turn is `LOUSHO_SESSION_BUSY` (stop it first); an unknown
   * one, or with `owner` another principal's, `LOUSHO_SESSION_NOT_FOUND`.
   */
  delete?(id: string, options?: { owner?: string }): Promise<void>;
  /**
   * Puts a message in the session's queue (docs/protocol.md, "Queued messages and steering"):
   * `mode: 'queue'` (default) runs it as the next turn once the running one ends; `'steer'` gives
   * it to the running turn at its next step boundary (the model sees it in its next call). A
   * session with no turn running starts it at once. Kept in the session's log: durable in every
   * store, and seen by every client following the session. With `owner`, another principal's
   * session is `LOUSHO_SESSION_NOT_FOUND`; bad input or an unknown mode is `LOUSHO_INVALID_INPUT`.
   * `mode: 'turn'` is a turn now or nothing: `LOUSHO_SESSION_BUSY` while one runs (what a client's
   * `send(input, { mode: 'turn' })` gets), else it starts as a queued message would.
   */
  enqueue?(id: string, input: string | ContentPart[], options?: { mode?: SendMode | 'turn'; owner?: string; metadata?: Record<string, unknown> }): Promise<QueuedMessage>;
  /** Removes a waiting message; `LOUSHO_QUEUED_MESSAGE_NOT_FOUND` when it is not waiting (any more). */
  unqueue?(id: string, queueId: string, options?: { owner?: string }): Promise<void>;
  /** The messages waiting in the session's queue as this process knows it, oldest first. */
  queued?(id: string): QueuedMessage[];
}

/** A message waiting in a session's queue (`agent.sessions.enqueue`). */
export interface QueuedMessage {
  queueId: string;
  mode: SendMode;
  /** The user message it becomes. */
  message: Message;
  metadata?: Record<string, unknown>;
}

/** Options of `agent.resume(sessionId, options)`: finishing a run a crash (or a lost lease) cut off. */
export interface ResumeOptions {
  /** Stops the resumed run, as `send()`'s `signal` does. */
  signal?: AbortSignal;
  /**
   * Take the session over even while another run's lease on it has not run out (default true:
   * call it when you know that run's process is gone, e.g. on startup after a crash). With
   * `false`, a session another run holds is `LOUSHO_SESSION_BUSY`: only an interrupted run, whose
   * lease has run out, is resumed (the HTTP route's way: a person's "Resume" never cuts a live run off).
   */
  force?: boolean;
}

/**
 * One conversation with an agent (`agent.session(id?)`): every `send()` / `stream()` continues the
 * same transcript, kept in the agent's store. A turn sent while another runs on the session rejects
 * with `LOUSHO_SESSION_BUSY`; while a call waits for approval, with `SessionAwaitingApprovalError`.
 */
export interface AgentSession<TObject = unknown> {
  /** The session id (generated when `agent.session()` was called without one). */
  readonly id: string;
  /** The transcript so far (no system prompt), as this process knows it. */
  readonly messages: readonly Message[];
  /** Sends the next user turn and resolves when the run ends (or pauses). */
  send(input: AgentInput, options?: Omit<RunOptions, 'sessionId'>): Promise<ExecutionResult<TObject>>;
  /** Sends the next user turn as a stream of events; its `result` settles when the run ends. */
  stream(input: AgentInput, options?: Omit<RunOptions, 'sessionId'>): AgentRun<TObject>;
}

/**
 * An agent from `createAgent()`: send it input, stream a run, hold a conversation, decide the
 * calls it paused on. `TObject` is the structured output type (with `output`).
 */
export interface Agent<TObject = unknown, TTools = unknown> {
  /** Type-only marker: the structured output type and the union of the agent's tool types. */
  readonly __types?: { readonly output: TObject; readonly tools: TTools };
  /** The `name` it was created with. */
  readonly name?: string;
  /** The `description` it was created with. */
  readonly description?: string;
  /**
   * Runs the agent on `input` and resolves with the result. A stopped, paused (approval) or
   * step-limited run resolves too (read `finishReason`); a provider failure or a throwing hook rejects.
   */
  send(input: AgentInput, options?: RunOptions): Promise<ExecutionResult<TObject>>;
  /** Runs the agent as a stream of events (text deltas, tool calls, approvals, `run.done`). */
  stream(input: AgentInput, options?: RunOptions): AgentRun<TObject>;
  /** A multi-turn conversation: the session `id`, or a new one. */
  session(id?: string): AgentSession<TObject>;
  /** The calls this agent's runs paused on, and the way to decide them. */
  readonly approvals: AgentApprovals<TObject>;
  /** Session state and events, for UI clients and the HTTP handler. */
  readonly sessions: AgentSessions;
  /** The store of uploaded attachments (`createAgent({ files })`), when it has one. */
  readonly files?: FileStore;
  /**
   * Resumes a run that a crash interrupted (from the store's checkpoint), taking the session over
   * from the process that died: tool calls without a result run again (same `toolCallId`), and the
   * model is not asked again for a turn the checkpoint has. Rejects with `LOUSHO_SESSION_NOT_RESUMABLE`
   * when the session's latest run finished, and `SessionAwaitingApprovalError` while it waits for a person.
   */
  resume(sessionId: string, options?: ResumeOptions): Promise<ExecutionResult<TObject>>;
  /**
   * Like `resume()`, as a stream of the resumed leg's events (what `POST /sessions/:id/resume`
   * sends). Rejects, before any event, like `resume()`, and with `LOUSHO_SESSION_BUSY` when
   * `force: false` and another run holds the session.
   */
  resumeStream(sessionId: string, options?: ResumeOptions): Promise<AgentRun<TObject>>;
  /** Releases what the agent holds open: the connections to its `mcpServers` (a later run connects again). */
  close(): Promise<void>;
}
