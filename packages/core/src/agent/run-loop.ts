import type { FinishReason, PendingApprovalInfo } from '../events/types.js';
import type { Message, ToolCall } from '../messages.js';
import { textOf } from '../messages.js';
import { estimateTokens } from '../models/tokens.js';
import { isAbortError } from '../providers/abort.js';
import { StreamAssembler } from '../providers/generate.js';
import type { GenerateResult, ModelFinishReason } from '../providers/types.js';
import { toolSchemaToJSONSchema, validateToolSchema } from '../tools/schema.js';
import { UsageTracker } from '../usage/tracker.js';
import type { GuardrailInfo } from '../guardrails/types.js';
import { checkOutputGuardrails } from './guardrail-stage.js';
import { emitListener, type LoopDeps } from './loop-deps.js';
import type { PausedBatch, RunSnapshot } from './run-snapshot.js';
import { activeMs, exceededBudget, type BudgetExceeded } from './stages/budget.js';
import { prepareModelCall } from './stages/model-request.js';
import { answerUnstarted, runToolBatch, type BatchResult } from './tool-batch.js';
import type { CallScope, PreparedCall } from './tool-call.js';
import { copyWithSharedShape } from '../utils/shared-shape.js';

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

/**
 * The agent loop: call the model, run the tools it asks for, repeat until it answers, a budget runs
 * out, a call waits for a person, or the run is stopped. Mutates `snapshot` (the run's serializable
 * state) as it goes and reports through `deps` (events, listeners, checkpoints).
 */
export async function runLoop(deps: LoopDeps, snapshot: RunSnapshot, continuation?: BatchContinuation): Promise<LoopOutcome> {
  const usage = new UsageTracker(snapshot.usage);
  const signal = deps.signal;
  const responseFormat = deps.output ? { type: 'json' as const, schema: toolSchemaToJSONSchema(deps.output) } : undefined;
  let lastText = lastAssistantText(snapshot);
  let lastModelFinish: ModelFinishReason = 'stop';
  const legStart = Date.now();

  const addPendingInput = (): boolean => addWaitingInput(snapshot, deps.emit);

  // A run that ends before it answered the interrupted turn still keeps the input that waited
  // (unanswered); a pause keeps it waiting in the paused snapshot.
  const finish = (finishReason: FinishReason, extra: Partial<LoopOutcome> = {}): LoopOutcome => {
    if (finishReason !== 'awaiting-approval') addPendingInput();
    snapshot.activeMs = activeMs(snapshot, legStart);
    return { finishReason, text: lastText, ...extra };
  };
  const overBudget = (pendingToolCalls?: number): LoopOutcome | undefined => {
    const budget = exceededBudget(deps.limits, snapshot, legStart, pendingToolCalls) ?? deps.outerBudget?.();
    return budget && finish('budget-exceeded', { budget });
  };

  // An approval resume (or a recovered run) first finishes the paused or interrupted batch.
  if (continuation) {
    const pending = continuation.batch ?? snapshot.paused;
    delete snapshot.paused;
    if (pending) {
      const scope: CallScope = { deps, snapshot, usage, step: pending.step, visibleLength: visibleLengthOf(snapshot, pending.calls), legStart };
      const batch = await runToolBatch(scope, pending.calls, pending.index, continuation.first, continuation.restNotRun, (pending as Partial<PausedBatch>).settled);
      const stop = afterBatch(batch, pending.calls, pending.step);
      if (stop) return stop;
    }
    const added = continuation.then ? await continuation.then() : false;
    // The answer was checkpointed before the crash: the model is not asked again. Input that waited
    // for it is added now, and the model answers that.
    if (continuation.recovered && !added && endsWithAnswer(snapshot)) {
      if (!addPendingInput()) return finish('stop');
      await deps.checkpoint?.(snapshot);
    }
  }

  function afterBatch(batch: BatchResult, calls: ToolCall[], step: number): LoopOutcome | undefined {
    if (batch.kind === 'aborted') return finish('aborted');
    if (batch.kind === 'paused') {
      snapshot.paused = { approval: batch.approval, step, calls, index: batch.index, ...(batch.settled ? { settled: batch.settled } : {}) };
      return finish('awaiting-approval', { paused: snapshot.paused });
    }
    if (snapshot.guardrail) return finish('guardrail', { guardrail: snapshot.guardrail, text: '' });
    // Budget check, per tool batch.
    return overBudget();
  }

  for (;;) {
    if (signal?.aborted) return finish('aborted');
    if (snapshot.steps - (snapshot.budgetFrom ?? 0) >= deps.maxSteps) return finish('max-steps');
    // The sub-agents of the last batch have answered (their results are in the transcript).
    delete snapshot.children;
    const step = ++snapshot.steps;
    deps.emit({ type: 'step.start', step });

    // Stages before the model call: recall memory / list skills, preGenerate hooks, compaction.
    const request = await prepareModelCall(deps, snapshot, step, usage, responseFormat);

    const visibleLength = snapshot.messages.length;
    const assembler = new StreamAssembler();
    const callIds = new Map<number, string>();
    const modelId = snapshot.model || deps.provider.defaultModel || deps.provider.name;
    // With `fallbackModels`, the call's usage is counted under the model that answered it.
    const answeredBy = (): string => deps.modelUsed?.() || modelId;
    const chat = deps.tracer?.chat(step, request, modelId);
    let aborted = false;
    try {
      for await (const chunk of deps.provider.stream(request)) {
        chat?.chunk();
        assembler.push(chunk);
        switch (chunk.type) {
          case 'text-delta':
            if (chunk.text) deps.emit({ type: 'text.delta', step, delta: chunk.text });
            break;
          case 'reasoning-delta':
            if (chunk.text) deps.emit({ type: 'reasoning.delta', step, delta: chunk.text });
            break;
          case 'tool-call-start':
            callIds.set(chunk.index, chunk.id);
            deps.emit({ type: 'tool.input.start', step, toolCallId: chunk.id, toolName: chunk.name, displayName: displayNameOf(deps, chunk.name) });
            break;
          case 'tool-call-delta': {
            const id = callIds.get(chunk.index);
            if (id && chunk.argumentsDelta) deps.emit({ type: 'tool.input.delta', toolCallId: id, delta: chunk.argumentsDelta });
            break;
          }
          default:
            break;
        }
        if (signal?.aborted) {
          aborted = true;
          break;
        }
      }
    } catch (err) {
      if (!(signal?.aborted || isAbortError(err))) {
        chat?.fail(err);
        throw err;
      }
      aborted = true;
    }

    if (aborted || signal?.aborted) {
      // Keep what the person already saw streaming; the unfinished tool calls are dropped.
      const partial = assembler.text;
      // The request went out and tokens came back: the stopped call costs something too. Counted
      // with what the provider reported, else estimated (from the prompt and what streamed).
      const streamed = partial + assembler.reasoning;
      const calls = assembler.toolCalls;
      snapshot.stepUsage.push(
        usage.record({
          model: answeredBy(),
          ...(assembler.usage ? { reported: assembler.usage } : {}),
          estimateInput: () => estimateTokens(request.system ? [{ role: 'system', content: request.system }, ...request.messages] : [...request.messages], { model: modelId }),
          estimateOutput: () => estimateTokens({ role: 'assistant', content: streamed, ...(calls.length ? { toolCalls: calls } : {}) }, { model: modelId }),
        }),
      );
      snapshot.usage = usage.snapshot();
      chat?.aborted(snapshot.stepUsage.at(-1));
      if (partial) {
        snapshot.messages.push(Object.freeze({ role: 'assistant', content: partial, metadata: { aborted: true } }) as Message);
        lastText = partial;
      }
      await deps.checkpoint?.(snapshot);
      return finish('aborted');
    }

    const text = assembler.text;
    const toolCalls = assembler.toolCalls;
    lastModelFinish = assembler.finishReason;
    const response: GenerateResult = { text, toolCalls, finishReason: lastModelFinish, ...(assembler.usage ? { usage: assembler.usage } : {}) };
    const stepUsage = usage.record({
      model: answeredBy(),
      ...(assembler.usage ? { reported: assembler.usage } : {}),
      estimateInput: () => estimateTokens(request.system ? [{ role: 'system', content: request.system }, ...request.messages] : [...request.messages], { model: modelId }),
      estimateOutput: () => estimateTokens({ role: 'assistant', content: text, ...(toolCalls.length ? { toolCalls } : {}) }, { model: modelId }),
    });
    snapshot.usage = usage.snapshot();
    snapshot.stepUsage.push(stepUsage);
    chat?.end(stepUsage, lastModelFinish, text, toolCalls);

    const assistant: Message = { role: 'assistant', content: text };
    if (toolCalls.length > 0) assistant.toolCalls = toolCalls;
    snapshot.messages.push(Object.freeze(assistant));
    if (text || toolCalls.length === 0) lastText = text;

    for (const hook of deps.hooks) if (hook.postGenerate) await hook.postGenerate({ runId: snapshot.runId, sessionId: snapshot.sessionId, step, request, ...(deps.subagent ? { subagent: deps.subagent } : {}) }, response);
    deps.onLLMResponse?.(response, step, stepUsage);
    deps.emit({ type: 'step.done', step, finishReason: lastModelFinish, usage: snapshot.usage, stepUsage });
    emitListener(deps, { type: 'text-complete', runId: snapshot.runId, step, text, usage: snapshot.usage, stepUsage });
    await deps.checkpoint?.(snapshot);

    if (toolCalls.length === 0) {
      // Every reply that ends a turn is checked, an interrupted turn's too (the user sees it).
      const guardrail = await checkOutputGuardrails(deps, snapshot, text);
      if (guardrail) return finish('guardrail', { guardrail, text: '' });
      // Budget check, per model call: the reply that went over is kept (the user saw it stream). Only
      // the run's own limits: a sub-agent's answer that takes its lead over still reaches the lead,
      // whose batch check then ends the lead's run.
      const budget = exceededBudget(deps.limits, snapshot, legStart);
      if (budget) return finish('budget-exceeded', { budget });
      // The interrupted turn is answered: now the input that waited for it.
      if (addPendingInput()) {
        await deps.checkpoint?.(snapshot);
        continue;
      }
      if (!deps.output) return finish(lastModelFinish);
      const checked = await checkOutput(deps, text);
      if (checked.ok) return finish(lastModelFinish, { object: checked.value });
      if (!snapshot.repairUsed && snapshot.steps < deps.maxSteps) {
        // One repair step: tell the model what was wrong and let it answer again.
        snapshot.repairUsed = true;
        snapshot.messages.push(
          Object.freeze({
            role: 'user',
            content: `Your reply did not match the required JSON schema: ${checked.error.message}. Reply again with only a JSON object that matches the schema.`,
            metadata: { outputRepair: true },
          }) as Message,
        );
        continue;
      }
      return finish('output-invalid', { outputError: checked.error });
    }

    const scope: CallScope = { deps, snapshot, usage, step, visibleLength, legStart };
    // Budget check, per model call: over budget, the calls just asked for never start (each gets a result).
    const over = overBudget(toolCalls.length);
    if (over) {
      await answerUnstarted(scope, toolCalls, `The run's ${over.budget!.limit} budget ran out, so this call was not started.`);
      return over;
    }
    const batch = await runToolBatch(scope, toolCalls, 0);
    const stop = afterBatch(batch, toolCalls, step);
    if (stop) return stop;
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

function displayNameOf(deps: LoopDeps, name: string): string {
  return deps.tools.get(name)?.displayName ?? name;
}

function lastAssistantText(snapshot: RunSnapshot): string {
  for (let i = snapshot.messages.length - 1; i >= snapshot.runStart; i--) {
    const m = snapshot.messages[i]!;
    if (m.role === 'assistant' && textOf(m)) return textOf(m);
  }
  return '';
}

async function checkOutput(
  deps: LoopDeps,
  text: string,
): Promise<{ ok: true; value: unknown } | { ok: false; error: { message: string; issues: { path: string; message: string }[] } }> {
  let value: unknown;
  try {
    value = JSON.parse(stripJsonFence(text));
  } catch {
    return { ok: false, error: { message: 'The reply is not valid JSON', issues: [{ path: '', message: 'Expected a JSON object' }] } };
  }
  const checked = await validateToolSchema(deps.output!, value);
  if (checked.ok) return { ok: true, value: checked.value };
  const summary = checked.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  return { ok: false, error: { message: `The reply does not match the output schema (${summary})`, issues: checked.issues } };
}

/** Models often wrap JSON in a ```json fence even in JSON mode. */
function stripJsonFence(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  return fenced ? fenced[1]! : trimmed;
}

export type { PendingApprovalInfo };
