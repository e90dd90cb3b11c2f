import type { PendingApprovalInfo } from '../events/types.js';
import type { Message, ToolCall } from '../messages.js';
import type { SpanRef } from '../tracing/types.js';
import type { RunUsage, StepUsage } from '../usage/types.js';
import type { GuardrailInfo } from '../guardrails/types.js';
import type { RunConfigContext, ToolCallRecord } from './types.js';

/** A tool batch stopped at a call that waits for a person. */
export interface PausedBatch {
  approval: PendingApprovalInfo;
  /** The model call (1-based) whose turn made the batch. */
  step: number;
  /** Every call of the turn, in the model's order. */
  calls: ToolCall[];
  /** Index in `calls` of the paused call; every call before it already has its result in `messages`. */
  index: number;
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
