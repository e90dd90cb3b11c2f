import type { PendingApprovalInfo } from './events.js';
import type { AgentInput, Message, ToolCall } from './messages.js';
import type { ToolArtifact, ToolErrorResult } from './tools.js';
import type { SpanRef } from './tracing.js';
import type { RunUsage, StepUsage } from './usage.js';
import type { GuardrailInfo } from './guardrails.js';
import type { SubagentRef } from './subagents.js';


/** A tool batch stopped at a call that waits for a person. */
export interface PausedBatch {
  approval: PendingApprovalInfo;
  /** The model call (1-based) whose turn made the batch. */
  step: number;
  /** Every call of the turn, in the model's order. */
  calls: ToolCall[];
  /** Index in `calls` of the paused call; every call before it already has its result in `messages`. */
  index: number;
  /**
   * Calls after the paused one that finished before the batch stopped (a sub-agent paused while
   * they ran), by index: their results go into the transcript on resume, and they never run again.
   */
  settled?: Record<number, SettledCall>;
}

/** A finished call kept across a pause (already announced; recorded in `toolCalls` when its turn in call order comes). */
export interface SettledCall {
  call: ToolCall;
  args: unknown;
  result: unknown;
  isError: boolean;
  error?: ToolErrorResult;
  artifacts?: ToolArtifact[];
  replacedByHook?: string;
}

/** A sub-agent's run as its parent keeps it: enough to go on after a pause or a crash. */
export interface ChildSnapshot extends RunSnapshot {
  /** The sub-agent's name. */
  subagent: string;
  /**
   * Set when it finished and its usage went into the parent's: its answer (`failed` when it ended
   * without one), so a call run again after a crash returns it instead of running it again.
   */
  result?: { value: unknown; failed?: boolean };
}

/**
 * The serializable state of a run: what a checkpoint or a paused approval keeps so the run can go on,
 * in this process or another one. Plain JSON only.
 */
export interface RunSnapshot {
  runId: string;
  sessionId: string;
  /** The model the run resolved; a resumed run never switches model mid-turn. */
  model: string;
  /** The per-run config context, kept so `tools` can be resolved again with the same ctx. */
  configContext: RunConfigContext;
  /** The transcript (no system prompt). */
  messages: Message[];
  /** Index in `messages` where this run's own messages start. */
  runStart: number;
  steps: number;
  usage: RunUsage;
  stepUsage: StepUsage[];
  toolCalls: ToolCallRecord[];
  /** Whether the structured-output repair step was used. */
  repairUsed?: boolean;
  paused?: PausedBatch;
  /** The guardrail that ended the run, once one blocked. */
  guardrail?: GuardrailInfo;
  /**
   * What the run's memories recalled into the system prompt on its first model call: kept so every
   * later call of the run (and its continuation after a pause) sends the same system prompt.
   */
  recalled?: string;
  /** Time the run spent running in earlier legs (before a pause), for `limits.maxDurationMs`. */
  activeMs?: number;
  /**
   * Sub-agents started by the current tool batch, by the `toolCallId` that started them: their
   * state is checkpointed with the run's, so a resumed run goes on with them instead of starting
   * them again. Cleared before the next model call.
   */
  children?: Record<string, ChildSnapshot>;
  /**
   * Input that came while the run was interrupted (a new message to a session whose run a crash or
   * an outage cut off): the interrupted turn finishes first, and this is added when the model has
   * answered it (or, unanswered, when the run ends otherwise, so it is never lost).
   */
  pendingInput?: Message[];
  /** The step count when the latest input was added: `maxSteps` counts the steps after it. */
  budgetFrom?: number;
  /** With tracing: the span of the run's latest leg, which the next leg (after a pause or a crash) links to. */
  traceSpan?: SpanRef;
}

/** What per-run config functions receive. */
export interface RunConfigContext {
  sessionId?: string;
  /** The run's user input (`[]` for a run resumed from a crash checkpoint). */
  input: AgentInput;
  metadata?: Record<string, unknown>;
}

/** A static value or a function of the run, resolved once when a run (or session turn) starts. */
export type PerRun<T> = T | ((ctx: RunConfigContext) => T | Promise<T>);

/** The result of a finished tool call, as `onToolResult` and `ExecutionResult.toolCalls` see it. */
export interface ToolCallRecord {
  toolCallId: string;
  toolName: string;
  args: unknown;
  result: unknown;
  isError: boolean;
  error?: ToolErrorResult;
  artifacts?: ToolArtifact[];
  replacedByHook?: string;
  /** Set when a sub-agent made the call (`onToolResult`; the run's own `toolCalls` are the lead's). */
  subagent?: SubagentRef;
}
