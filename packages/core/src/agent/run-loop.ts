import type { FinishReason, PendingApprovalInfo } from '@lousho/protocol';
import type { ToolCall } from '@lousho/protocol';
import { textOf } from '@lousho/protocol';
import type { GenerateOptions, ModelFinishReason } from '@lousho/protocol';
import { toolSchemaToJSONSchema } from '../tools/schema.js';
import { UsageTracker } from '../usage/tracker.js';
import type { GuardrailInfo } from '@lousho/protocol';
import type { LoopDeps } from './loop-deps.js';
import type { PausedBatch, RunSnapshot } from '@lousho/protocol';
import { activeMs, exceededBudget } from './stages/budget.js';
import type { BudgetExceeded } from '@lousho/protocol';
import { checkOutputGuardrails } from './stages/guardrails.js';
import { recordAnswer } from './stages/model-answer.js';
import { keepStoppedCall, streamModelCall } from './stages/model-call.js';
import { prepareModelCall } from './stages/model-request.js';
import { checkOutput, repairMessage } from './stages/structured-output.js';
import { answerUnstarted, runToolBatch, type BatchResult } from './tool-batch.js';
import type { BatchContinuation, CallScope } from './tool-call.js';
import { copyWithSharedShape } from '@lousho/protocol';
import { takeSteeringMessages } from './stages/steer.js';

/** How a run (or one leg of it, up to a pause) ended. */
export interface LoopOutcome {
  finishReason: FinishReason;
  text: string;
  object?: unknown;
  outputError?: { message: string; issues: { path: string; message: string }[] };
  paused?: PausedBatch;
  /** Set when a `limits` budget ended the run (`finishReason: 'budget-exceeded'`). */
  budget?: BudgetExceeded;
  guardrail?: GuardrailInfo;
}

/**
 * The agent loop: call the model, run the tools it asks for, repeat until it answers, a budget runs
 * out, a call waits for a person, or the run is stopped. Mutates `snapshot` (the run's serializable
 * state) as it goes and reports through `deps` (events, listeners, checkpoints).
 */
export async function runLoop(deps: LoopDeps, snapshot: RunSnapshot, continuation?: BatchContinuation): Promise<LoopOutcome> {
  const loop = new LoopLeg(deps, snapshot);
  // An approval resume (or a recovered run) first finishes the paused or interrupted batch.
  if (continuation) {
    const stop = await loop.continueFrom(continuation);
    if (stop) return stop;
  }
  for (;;) {
    const stop = await loop.step();
    if (stop) return stop;
  }
}

/** One leg of the loop: the run's usage, the text it answered last, and when the leg started. */
class LoopLeg {
  readonly usage: UsageTracker;
  readonly responseFormat: GenerateOptions['responseFormat'];
  readonly legStart = Date.now();
  lastText: string;
  lastModelFinish: ModelFinishReason = 'stop';

  constructor(
    readonly deps: LoopDeps,
    readonly snapshot: RunSnapshot,
  ) {
    this.usage = new UsageTracker(snapshot.usage);
    this.responseFormat = deps.output ? { type: 'json' as const, schema: toolSchemaToJSONSchema(deps.output) } : undefined;
    this.lastText = lastAssistantText(snapshot);
  }

  /**
   * One step, the stages of a model call: (config was resolved when the leg started) recall memory /
   * list skills → `preGenerate` hooks → compaction → model → `postGenerate` hooks → budget check;
   * then the answer's checks, or the tool calls' batch and its budget check. Undefined: next step.
   */
  async step(): Promise<LoopOutcome | undefined> {
    const { deps, snapshot, usage } = this;
    if (deps.signal?.aborted) return this.finish('aborted');
    if (snapshot.steps - (snapshot.budgetFrom ?? 0) >= deps.maxSteps) return this.finish('max-steps');
    const blocked = await takeSteeringMessages(deps, snapshot);
    if (blocked) return this.finish('guardrail', { guardrail: blocked });
    // The sub-agents of the last batch have answered (their results are in the transcript).
    delete snapshot.children;
    const step = ++snapshot.steps;
    deps.emit({ type: 'step.start', step });
    const request = await prepareModelCall(deps, snapshot, step, usage, this.responseFormat);
    const visibleLength = snapshot.messages.length;
    const call = await streamModelCall(deps, snapshot, step, request);
    if (call.aborted) {
      this.lastText = (await keepStoppedCall(deps, snapshot, usage, call, request)) || this.lastText;
      return this.finish('aborted');
    }
    const answer = await recordAnswer(deps, snapshot, usage, call, request, step);
    this.lastModelFinish = answer.finishReason;
    if (answer.text || answer.toolCalls.length === 0) this.lastText = answer.text;
    if (answer.toolCalls.length === 0) return this.afterAnswer(answer.text);
    return this.runTools({ deps, snapshot, usage, step, visibleLength, legStart: this.legStart }, answer.toolCalls);
  }

  /**
   * The model asked for tools. Budget check, per model call: over budget, the calls just asked for
   * never start (each gets a result). Else the batch runs each call through its stages (call-stages.ts).
   */
  async runTools(scope: CallScope, toolCalls: ToolCall[]): Promise<LoopOutcome | undefined> {
    const over = this.overBudget(toolCalls.length);
    if (over) {
      await answerUnstarted(scope, toolCalls, `The run's ${over.budget!.limit} budget ran out, so this call was not started.`);
      return over;
    }
    const batch = await runToolBatch(scope, toolCalls, 0);
    return this.afterBatch(batch, toolCalls, scope.step);
  }

  /**
   * The model answered without tools: output guardrails → budget check → the input that waited for an
   * interrupted turn → structured output (one repair step). Undefined: the loop goes on.
   */
  async afterAnswer(text: string): Promise<LoopOutcome | undefined> {
    const { deps, snapshot } = this;
    // Every reply that ends a turn is checked, an interrupted turn's too (the user sees it).
    const guardrail = await checkOutputGuardrails(deps, snapshot, text);
    if (guardrail) return this.finish('guardrail', { guardrail, text: '' });
    // Budget check, per model call: the reply that went over is kept (the user saw it stream). Only
    // the run's own limits: a sub-agent's answer that takes its lead over still reaches the lead,
    // whose batch check then ends the lead's run.
    const budget = exceededBudget(deps.limits, snapshot, this.legStart);
    if (budget) return this.finish('budget-exceeded', { budget });
    // The interrupted turn is answered: now the input that waited for it.
    if (this.addPendingInput()) {
      await deps.checkpoint?.(snapshot);
      return undefined;
    }
    if (!deps.output) return this.finish(this.lastModelFinish);
    const checked = await checkOutput(deps.output, text);
    if (checked.ok) return this.finish(this.lastModelFinish, { object: checked.value });
    if (!snapshot.repairUsed && snapshot.steps < deps.maxSteps) {
      // One repair step: tell the model what was wrong and let it answer again.
      snapshot.repairUsed = true;
      snapshot.messages.push(repairMessage(checked.error));
      return undefined;
    }
    return this.finish('output-invalid', { outputError: checked.error });
  }

  /** After a batch: a stop, a pause or a guardrail ends the leg; else the budget check, per tool batch. */
  afterBatch(batch: BatchResult, calls: ToolCall[], step: number): LoopOutcome | undefined {
    const { snapshot } = this;
    if (batch.kind === 'aborted') return this.finish('aborted');
    if (batch.kind === 'paused') {
      snapshot.paused = { approval: batch.approval, step, calls, index: batch.index, ...(batch.settled ? { settled: batch.settled } : {}) };
      return this.finish('awaiting-approval', { paused: snapshot.paused });
    }
    if (snapshot.guardrail) return this.finish('guardrail', { guardrail: snapshot.guardrail, text: '' });
    return this.overBudget();
  }

  /** Finishes the batch a pause or a crash left, then runs the continuation's `then`. */
  async continueFrom(continuation: BatchContinuation): Promise<LoopOutcome | undefined> {
    const { deps, snapshot, usage } = this;
    const pending = continuation.batch ?? snapshot.paused;
    delete snapshot.paused;
    if (pending) {
      const scope: CallScope = { deps, snapshot, usage, step: pending.step, visibleLength: visibleLengthOf(snapshot, pending.calls), legStart: this.legStart };
      const batch = await runToolBatch(scope, pending.calls, pending.index, continuation.first, continuation.restNotRun, (pending as Partial<PausedBatch>).settled);
      const stop = this.afterBatch(batch, pending.calls, pending.step);
      if (stop) return stop;
    }
    const added = continuation.then ? await continuation.then() : false;
    // The answer was checkpointed before the crash: the model is not asked again. Input that waited
    // for it is added now, and the model answers that.
    if (continuation.recovered && !added && endsWithAnswer(snapshot)) {
      if (!this.addPendingInput()) return this.finish('stop');
      await deps.checkpoint?.(snapshot);
    }
    return undefined;
  }

  addPendingInput(): boolean {
    return addWaitingInput(this.snapshot, this.deps.emit);
  }

  /**
   * A run that ends before it answered the interrupted turn still keeps the input that waited
   * (unanswered); a pause keeps it waiting in the paused snapshot.
   */
  finish(finishReason: FinishReason, extra: Partial<LoopOutcome> = {}): LoopOutcome {
    if (finishReason !== 'awaiting-approval') this.addPendingInput();
    this.snapshot.activeMs = activeMs(this.snapshot, this.legStart);
    return { finishReason, text: this.lastText, ...extra };
  }

  /** Budget check: the run's limits, then (a sub-agent's) those of the runs it is nested in. */
  overBudget(pendingToolCalls?: number): LoopOutcome | undefined {
    const budget = exceededBudget(this.deps.limits, this.snapshot, this.legStart, pendingToolCalls) ?? this.deps.outerBudget?.();
    return budget && this.finish('budget-exceeded', { budget });
  }
}

/**
 * Adds the input that waited for an interrupted turn to finish (see `RunSnapshot.pendingInput`):
 * from here on it is the run's latest input, and `maxSteps` counts from it. False when none waited.
 */
export function addWaitingInput(snapshot: RunSnapshot, emit: LoopDeps['emit']): boolean {
  const input = snapshot.pendingInput;
  if (!input?.length) return false;
  delete snapshot.pendingInput;
  for (const message of input) {
    const frozen = Object.freeze(copyWithSharedShape(message));
    snapshot.messages.push(frozen);
    emit({ type: 'user.message', message: frozen });
  }
  snapshot.budgetFrom = snapshot.steps;
  return true;
}

/** The transcript length the model had seen when it made the paused turn (before its assistant message). */
function visibleLengthOf(snapshot: RunSnapshot, calls: readonly ToolCall[]): number {
  for (let i = snapshot.messages.length - 1; i >= 0; i--) {
    const m = snapshot.messages[i]!;
    if (m.role === 'assistant' && m.toolCalls?.some((c) => c.id === calls[0]?.id)) return i;
  }
  return snapshot.messages.length;
}

/** The run's transcript ends with an assistant answer that asks for no tools. */
function endsWithAnswer(snapshot: RunSnapshot): boolean {
  const last = snapshot.messages.at(-1);
  return snapshot.messages.length > snapshot.runStart && last?.role === 'assistant' && !(last.toolCalls && last.toolCalls.length > 0);
}

function lastAssistantText(snapshot: RunSnapshot): string {
  for (let i = snapshot.messages.length - 1; i >= snapshot.runStart; i--) {
    const m = snapshot.messages[i]!;
    if (m.role === 'assistant' && textOf(m)) return textOf(m);
  }
  return '';
}

export type { PendingApprovalInfo };
