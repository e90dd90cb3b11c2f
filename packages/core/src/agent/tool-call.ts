import type { PendingApprovalInfo } from '@lousho/protocol';
import type { ToolCallHookContext } from '@lousho/protocol';
import type { ToolCall } from '@lousho/protocol';
import type { ToolDescriptor } from '@lousho/protocol';
import type { ToolExecutionContext } from '@lousho/protocol';
import type { UsageTracker } from '../usage/tracker.js';
import type { LoopDeps } from './loop-deps.js';
import type { RunSnapshot, SettledCall } from '@lousho/protocol';

/*
 * What one tool call is while it goes through its stages (`call-stages.ts` lists them, `stages/`
 * holds them): the run it belongs to (`CallScope`), what its preparation decided (`PreparedCall`) and
 * its outcome (`ToolOutcome`). Types only, so the stages import them without an import cycle.
 */

/** A finished call: exactly one per tool call of a turn (what a pause keeps of one, `SettledCall`, or a delegation that paused). */
export interface ToolOutcome extends SettledCall {
  /** Set instead of a result when the call (a delegation) paused for a person: it has no result yet. */
  paused?: PendingApprovalInfo;
}

/** What preparing a call decided: run it, it already has its outcome, or it waits for a person. */
export type PreparedCall =
  | { kind: 'run'; call: ToolCall; tool: ToolDescriptor; args: unknown; ctx: ToolExecutionContext; hookCtx: ToolCallHookContext }
  | { kind: 'done'; outcome: ToolOutcome; hookCtx?: ToolCallHookContext }
  | { kind: 'pause'; call: ToolCall; approval: PendingApprovalInfo };

export interface CallScope {
  deps: LoopDeps;
  snapshot: RunSnapshot;
  /** The run's usage totals (a delegation adds its sub-agent's usage to them). */
  usage: UsageTracker;
  step: number;
  /** The transcript the model saw for this turn: `snapshot.messages` up to (not including) the assistant turn. */
  visibleLength: number;
  /** When this leg of the run started (`maxDurationMs`; a sub-agent checks its lead's budgets too). */
  legStart: number;
}

/**
 * How a run goes on from a saved state before its next model call: finish a tool batch (the one that
 * paused, or the calls a crash left without results), then run `then` (e.g. append new input).
 */
export interface BatchContinuation {
  /** Decides the batch's first call (an approval decision); without it the call is prepared as usual. */
  first?: (scope: CallScope) => Promise<PreparedCall>;
  /** The batch to finish; default: `snapshot.paused`. */
  batch?: { calls: ToolCall[]; index: number; step: number };
  /** The calls after the first are not started; each gets a `not-run` result. */
  restNotRun?: boolean;
  /** Runs once the batch is done, before the next model call; true if it added messages. */
  then?: () => Promise<boolean>;
  /** A run recovered from a checkpoint: if the transcript already ends with the model's answer, it ends there. */
  recovered?: boolean;
}
