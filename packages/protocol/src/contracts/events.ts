import type { Message } from './messages.js';
import type { ModelFinishReason } from './providers.js';
import type { ToolArtifact, ToolErrorResult } from './tools.js';
import type { RunUsage, StepUsage } from './usage.js';
import type { BudgetExceeded } from './budget.js';
import type { SubagentRef } from './subagents.js';
import type { GuardrailInfo } from './guardrails.js';
import type { SerializedError } from './errors.js';

/** Why a run ended. See "Finish reasons" in the docs. */
export type FinishReason =
  | ModelFinishReason
  | 'awaiting-approval'
  | 'aborted'
  | 'max-steps'
  | 'output-invalid'
  | 'budget-exceeded'
  | 'guardrail'
  /** Only in UI state, set by `run.interrupted`: the run's process stopped mid-leg; the next leg goes on with it. */
  | 'interrupted';


export type { SerializedError };

/** How a message sent while a turn runs is taken: in a turn of its own once the running one ends, or into the running turn at its next step. */
export type SendMode = 'queue' | 'steer';

/**
 * What a pause asks for: a person's approval of a tool call (`tool`), a person's answer to a
 * question (`question`), or the result of a tool that runs in the browser (`client`).
 */
export type ApprovalKind = 'tool' | 'question' | 'client';

/** Everything a UI needs to ask a person about a paused call. */
export interface PendingApprovalInfo {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  displayName: string;
  /** The parsed arguments (after validation and any hook rewrite). */
  args: unknown;
  kind: ApprovalKind;
  /** The question text, for `kind: 'question'`. */
  question?: string;
  /** Set when the call waits inside a sub-agent: which one (the whole run is paused on it). */
  subagent?: SubagentRef;
}

/**
 * A replayed delta of a finished leg may stand for several streamed ones: the deltas numbered
 * `fromSeq` to `seq`, text joined. Over HTTP, so may a live delta sent to a reader that fell
 * behind (the deltas that waited for it, merged).
 */
interface ReplayedDelta {
  fromSeq?: number;
}

interface StreamEventBase {
  /** Per-session sequence number, starting at 1; what SSE `id:` and `Last-Event-ID` carry. */
  seq: number;
  runId: string;
  sessionId?: string;
  /** Set on a sub-agent's events: which sub-agent, how deep, and the call that started it. */
  subagent?: SubagentRef;
}

/**
 * Events of `agent.stream()` and of the wire protocol. JSON-serializable; documented in
 * docs/events.md. A consumer must ignore types it does not know.
 */
export type AgentStreamEvent =
  /** A run (or the continuation after an approval) started. */
  | (StreamEventBase & { type: 'run.start'; model: string; continuation?: boolean })
  /** The user's input, as appended to the transcript. */
  | (StreamEventBase & { type: 'user.message'; message: Message })
  /** A model call begins (1-based within the run). */
  | (StreamEventBase & { type: 'step.start'; step: number })
  | (StreamEventBase & { type: 'text.delta'; step: number; delta: string } & ReplayedDelta)
  | (StreamEventBase & { type: 'reasoning.delta'; step: number; delta: string } & ReplayedDelta)
  /** The model started writing a tool call; its arguments follow as deltas. */
  | (StreamEventBase & { type: 'tool.input.start'; step: number; toolCallId: string; toolName: string; displayName: string })
  | (StreamEventBase & { type: 'tool.input.delta'; toolCallId: string; delta: string } & ReplayedDelta)
  /** A call is about to run (arguments validated), or is about to be decided. */
  | (StreamEventBase & { type: 'tool.call'; step: number; toolCallId: string; toolName: string; displayName: string; args: unknown })
  /** A running call reported progress (`ctx.reportProgress`). UI only; the model never sees it. */
  | (StreamEventBase & { type: 'tool.progress'; toolCallId: string; toolName: string; progress: unknown })
  | (StreamEventBase & {
      type: 'tool.done';
      toolCallId: string;
      toolName: string;
      result: unknown;
      artifacts?: ToolArtifact[];
      replacedByHook?: string;
    })
  | (StreamEventBase & { type: 'tool.error'; toolCallId: string; toolName: string; error: ToolErrorResult })
  /** The run paused for a person. The stream ends after `run.done` with `awaiting-approval`. */
  | (StreamEventBase & { type: 'approval.requested'; approval: PendingApprovalInfo })
  | (StreamEventBase & { type: 'approval.resolved'; approvalId: string; toolCallId: string; approved: boolean; note?: string; answer?: string; kind?: ApprovalKind })
  /** The request is over the compaction threshold: compacting before the model call of `step`. */
  | (StreamEventBase & { type: 'compaction.start'; step: number; tokens: number; contextWindow: number })
  /** The transcript was compacted: `pruned` tool results shortened, `summarized` messages replaced by a summary. */
  | (StreamEventBase & { type: 'compaction.done'; step: number; tokensBefore: number; tokensAfter: number; pruned: number; summarized: number })
  | (StreamEventBase & {
      type: 'step.done';
      step: number;
      finishReason: ModelFinishReason;
      /** Running totals of the run so far. */
      usage: RunUsage;
      stepUsage: StepUsage;
    })
  | (StreamEventBase & {
      type: 'run.done';
      finishReason: FinishReason;
      usage: RunUsage;
      /**
       * The final assistant text of the run, on the events of `agent.stream()` in the process
       * that ran the leg. Not sent on the wire nor kept in the session's log: the deltas before
       * it carried the reply (docs/protocol.md).
       */
      text?: string;
      steps: number;
      approvalId?: string;
      object?: unknown;
      outputError?: { message: string; issues: { path: string; message: string }[] };
      /** Which `limits` budget ended the run (`finishReason: 'budget-exceeded'`). */
      budget?: BudgetExceeded;
      /** With `finishReason: 'guardrail'`: the guardrail that blocked, its stage and its reason. */
      guardrail?: GuardrailInfo;
    })
  /** The run failed; `run.done` does not follow. */
  | (StreamEventBase & { type: 'error'; error: SerializedError })
  /**
   * A message sent while a turn ran waits (`mode: 'queue'`: for its own turn once this one ends;
   * `'steer'`: for the running turn's next step). docs/protocol.md, "Queued messages and steering".
   */
  | (StreamEventBase & { type: 'message.queued'; queueId: string; mode: SendMode; message: Message; metadata?: Record<string, unknown> })
  /** A waiting message left the queue: `removed` by a person, `sent` as a turn (its `user.message` follows), `steered` into the running turn (its `user.message` follows). */
  | (StreamEventBase & { type: 'message.unqueued'; queueId: string; reason: 'removed' | 'sent' | 'steered' })
  /**
   * Ends a leg whose process stopped before it could (killed, or it lost the session's lease).
   * Written by the process that takes the session over, before its own leg starts. What the leg
   * streamed after the run's last checkpoint is void: a UI keeps its first `messages` messages
   * and, of the last one kept, its first `parts` parts. `usage` is the run's as checkpointed (null
   * when it has none). See docs/events.md.
   */
  | (StreamEventBase & { type: 'run.interrupted'; finishReason: 'interrupted'; usage: RunUsage | null; messages: number; parts: number })
  // Flows (`@lousho/flows`). A node's pass is named the way a tool call is: `toolCallId` is the run's
  // id and the pass (`<runId>:draft`, `<runId>:draft#2` in a loop's second pass,
  // `<runId>:research/web` for a branch of a parallel node; also the `toolCallId` of an approval
  // node's approval), `toolName` the node's id.
  /** A flow node (or a branch of a parallel node) started. `displayName`: its label. */
  | (StreamEventBase & { type: 'flow.node.start'; toolCallId: string; toolName: string; displayName: string; kind: string; iteration?: number; branch?: string })
  /** An event of the agent (or tool) a node runs, nested: a stream event without `seq`, `runId` and `sessionId`. */
  | (StreamEventBase & { type: 'flow.node.event'; toolCallId: string; event: NestedStreamEvent })
  /** The node finished; `result` is its output. */
  | (StreamEventBase & { type: 'flow.node.done'; toolCallId: string; toolName: string; result: unknown })
  | (StreamEventBase & { type: 'flow.node.error'; toolCallId: string; toolName: string; error: SerializedError })
  /** A `oneOf` node chose a branch: the id of the node it runs, or null when none matched. */
  | (StreamEventBase & { type: 'flow.branch'; toolCallId: string; toolName: string; branch: string | null });

/** A stream event nested in a `flow.node.event`, as the node's agent streamed it (unnumbered). */
export type NestedStreamEvent = { type: string } & Record<string, unknown>;

/** The `type` of every stream event (`run.start`, `text.delta`, `tool.call`, `run.done`, ...); docs/events.md lists them. */
export type AgentStreamEventType = AgentStreamEvent['type'];

/** A stream event before the session numbered it. */
export type UnsequencedStreamEvent = AgentStreamEvent extends infer E
  ? E extends AgentStreamEvent
    ? Omit<E, 'seq' | 'runId' | 'sessionId'>
    : never
  : never;

/**
 * Listener events (`onEvent`): the lifecycle of a run as callbacks see it.
 * Names follow the docs: `text-complete`, `tool-call`, `tool-result`, `finish`.
 */
export type AgentListenerEvent = (
  | { type: 'text-complete'; runId: string; step: number; text: string; usage: RunUsage; stepUsage: StepUsage }
  | { type: 'tool-call'; runId: string; toolCallId: string; toolName: string; args: unknown }
  | {
      type: 'tool-result';
      runId: string;
      toolCallId: string;
      toolName: string;
      result: unknown;
      isError: boolean;
      artifacts?: ToolArtifact[];
      replacedByHook?: string;
    }
  | { type: 'approval-requested'; runId: string; approval: PendingApprovalInfo }
  | { type: 'finish'; runId: string; finishReason: FinishReason; usage: RunUsage; text: string; guardrail?: GuardrailInfo }
) & {
  /** Set on a sub-agent's listener events (its run's `finish` included). */
  subagent?: SubagentRef;
};
