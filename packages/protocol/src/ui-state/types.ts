import type { FinishReason, PendingApprovalInfo, SerializedError, ApprovalKind } from '../contracts/events.js';
import type { AttachmentPart, FilePart, ImagePart } from '../messages.js';
import type { DefinedTool, UnwrapArtifacts } from '../tools/types.js';
import type { ToolArtifact, ToolErrorResult } from '../contracts/tools.js';
import type { RunUsage } from '../contracts/usage.js';
import type { GuardrailInfo } from '../contracts/guardrails.js';

/**
 * What a UI shows about the conversation:
 * - `idle`: nothing runs (no run yet, or the last one ended normally; `finishReason` says how).
 * - `submitted`: a run started but its reply has no content yet (show a "thinking" indicator).
 * - `streaming`: the reply is arriving (text, reasoning or tool calls).
 * - `awaiting-approval`: the run paused on a tool call or a question; see `pendingApproval`.
 * - `reconnecting`: the connection to the server broke while a run went on, and the client is
 *   trying to reach it again; everything else is as it was (set by the client, never by the reducer).
 * - `error`: the run failed, or the client gave up reaching the server; see `error`.
 * - `aborted`: the run was stopped.
 */
export type AgentUIStatus = 'idle' | 'submitted' | 'streaming' | 'awaiting-approval' | 'reconnecting' | 'error' | 'aborted';

/** Text the user wrote, or the assistant's answer (streamed in place while it arrives). */
export interface UITextPart {
  type: 'text';
  text: string;
}

/** The model's visible reasoning, for providers that stream it. */
export interface UIReasoningPart {
  type: 'reasoning';
  text: string;
}

/**
 * Earlier parts of the conversation were compacted here to fit the model's context window (old tool
 * results shortened, or old turns summarized). UIs show a quiet divider that says which: one part
 * per compaction that changed the transcript (one that changed nothing leaves no part).
 */
export interface UICompactionPart {
  type: 'compaction';
  /** Older tool results replaced by a `[pruned: ...]` marker. */
  pruned: number;
  /** Older messages replaced by a summary (0 when only tool results were shortened). */
  summarized: number;
}

/** An image the user attached (as in the transcript). */
export type UIImagePart = ImagePart;

/** A file the user attached (as in the transcript). */
export type UIFilePart = FilePart;

/** A file uploaded to the agent's file store (a reference: show it with `client.fileUrl(part)`). */
export type UIAttachmentPart = AttachmentPart;

/**
 * Where a tool call is:
 * - `input-streaming`: the model is still writing the arguments (`argsText` grows);
 * - `running`: arguments are final (`args`), the call runs (or waits its turn);
 * - `awaiting-approval`: paused for a person (`approval`);
 * - `awaiting-client`: a browser tool's call, waiting for the page to run it and send its result
 *   (`approval.kind` is `client`);
 * - `done`: it returned `result` (and maybe `artifacts`);
 * - `error`: it failed (`error`);
 * - `rejected`: a person said no;
 * - `cancelled`: the run ended (stopped or failed) before the call finished.
 */
export type UIToolState = 'input-streaming' | 'running' | 'awaiting-approval' | 'awaiting-client' | 'done' | 'error' | 'rejected' | 'cancelled';

/** The approval a tool call asked for, and how it was decided once it was. */
export interface UIToolApproval {
  approvalId: string;
  kind: ApprovalKind;
  /** The question, for `kind: 'question'`. */
  question?: string;
  /** Set once decided. */
  approved?: boolean;
  /** The reviewer's note, when one was given. */
  note?: string;
  /** The answer, for a question. */
  answer?: string;
}

/**
 * One tool call of an assistant message. Generic so that a binding can narrow it per tool:
 * `UIToolPart<'get_weather', { city: string }, { tempC: number }>`, or use `UIToolPartOf`.
 */
export interface UIToolPart<Name extends string = string, Args = unknown, Result = unknown> {
  type: 'tool';
  toolCallId: string;
  toolName: Name;
  displayName: string;
  state: UIToolState;
  /** The parsed arguments, once known. */
  args?: Args;
  /** The raw argument text as the model streamed it. */
  argsText?: string;
  /** The latest progress the running call reported (`ctx.reportProgress`), kept after it ends. */
  progress?: unknown;
  result?: Result;
  error?: ToolErrorResult;
  artifacts?: ToolArtifact[];
  approval?: UIToolApproval;
  /** Set on a delegation (`task` or a delegate tool): the sub-agent's transcript, live. */
  subagent?: UISubagent;
}

/** `running` while it works, `awaiting-approval` while a call in it waits, then its call's end state. */
export type UISubagentStatus = 'running' | 'awaiting-approval' | 'done' | 'error' | 'cancelled';

/** A sub-agent's work inside the tool part that started it. */
export interface UISubagent {
  /** The sub-agent's name. */
  name: string;
  status: UISubagentStatus;
  /** What it said and did: text, reasoning and tool parts (its own delegations nest the same way). */
  parts: readonly UIPart[];
}

/** Any tool part (the default, untyped one). */
export type AnyUIToolPart = UIToolPart<string, any, any>;

/** The tool parts of a list of `defineTool()` tools: `UIToolPartOf<typeof weather | typeof search>`. */
export type UIToolPartOf<T> = T extends DefinedTool<infer Name, infer Args, infer Result> ? UIToolPart<Name, Args, UnwrapArtifacts<Awaited<Result>>> : never;

/**
 * The tools a binding's type parameter stands for: a union of `defineTool()` tools as is, or the
 * tools an agent type declares through its type-only `__types.tools` marker.
 */
export type ToolsOf<T> = T extends DefinedTool<any, any, any> ? T : T extends { readonly __types?: { readonly tools?: infer Tools } } ? Tools : never;

/** The tool part type for `T` (tools or an agent); the untyped `UIToolPart` when `T` names no tools. */
export type ToolPartFor<T> = unknown extends ToolsOf<T> ? UIToolPart : [UIToolPartOf<ToolsOf<T>>] extends [never] ? UIToolPart : UIToolPartOf<ToolsOf<T>>;

/**
 * One pass of a flow node (or one branch of a parallel node), from the `flow.*` events. It has a
 * tool part's fields, so approvals and stops reach it the same way: `toolCallId` is the run's id and
 * the pass (`<runId>:draft`, `<runId>:draft#2`, `<runId>:research/web`), `toolName` the node's id,
 * `displayName` its label, `state` `running` / `done` / `error` / `awaiting-approval` / `rejected`
 * / `cancelled`, `result` its
 * output (for a `oneOf`, the id of the node it chose, or null); plus the node's `kind` and, for an
 * agent node, `run`: the agent's own run as its UI would show it, reduced from the nested events.
 */
export interface UIFlowNodePart extends Omit<UIToolPart, 'type' | 'error'> {
  type: 'flow-node';
  /** `agent`, `tool`, `step`, `oneOf`, `evaluator`, `parallel`, `approval` or `loop` (a parallel branch: its work's kind). */
  kind: string;
  run?: AgentUIState;
  error?: SerializedError;
}

/**
 * One piece of a message, told apart by `type`: text, reasoning, an image or file, a compaction
 * divider, a flow node, or a tool call (`tool-<name>` parts, typed by `ToolPart`). Render them in order.
 */
export type UIPart<ToolPart extends AnyUIToolPart = UIToolPart> = UITextPart | UIReasoningPart | UIImagePart | UIFilePart | UIAttachmentPart | UICompactionPart | UIFlowNodePart | ToolPart;

/**
 * One message of the conversation as a UI shows it: a user message, or the assistant's whole reply
 * to one turn (every step's text and tool calls, as parts in order).
 */
export interface UIMessage<ToolPart extends AnyUIToolPart = UIToolPart> {
  /** Stable for the life of the conversation (its position: `m0`, `m1`, ...). */
  id: string;
  role: 'user' | 'assistant';
  parts: readonly UIPart<ToolPart>[];
}

/** The state every UI binding shows; built by `reduceAgentEvents`. Immutable. */
export interface AgentUIState<ToolPart extends AnyUIToolPart = UIToolPart> {
  readonly messages: readonly UIMessage<ToolPart>[];
  readonly status: AgentUIStatus;
  /** The call the run is paused on, while `status` is `awaiting-approval`. */
  readonly pendingApproval: PendingApprovalInfo | null;
  /** Why the run failed, while `status` is `error`. */
  readonly error: SerializedError | null;
  /** Running totals of the current (or last) run. */
  readonly usage: RunUsage | null;
  /** Why the last run ended (null while one runs). */
  readonly finishReason: FinishReason | null;
  /** With `finishReason: 'guardrail'`: which guardrail blocked, at what stage, and why. */
  readonly guardrail: GuardrailInfo | null;
  /** The sequence number of the last event applied (0 before any): resume after it. */
  readonly lastSeq: number;
  /** The run the latest events belong to. */
  readonly runId: string | undefined;
  /**
   * Messages sent while a turn ran, waiting (oldest first): `queue` ones run as the next turn,
   * `steer` ones join the running turn at its next step. Absent while none ever waited.
   */
  readonly queued?: readonly UIQueuedMessage[];
}

/** A message waiting in the session's queue, as a UI shows it (with a way to remove it: `unqueue(id)`). */
export interface UIQueuedMessage {
  /** The queue id (`unqueue(id)` takes it). */
  id: string;
  mode: 'queue' | 'steer';
  parts: readonly UIPart[];
}
