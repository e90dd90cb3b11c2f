import type { PendingApprovalInfo } from '../events/types.js';
import type { ToolCall } from '../messages.js';
import { toolErrorResult } from '../tools/errors.js';
import type { SettledCall } from './run-snapshot.js';
import {
  announceOutcome,
  cancelledError,
  executeCall,
  finishOutcome,
  prepareCall,
  toolCallRecord,
  toolMessage,
  type CallScope,
  type PreparedCall,
  type ToolOutcome,
} from './tool-call.js';

export type BatchResult =
  | { kind: 'done' }
  | { kind: 'aborted' }
  | { kind: 'paused'; index: number; approval: PendingApprovalInfo; settled?: Record<number, SettledCall> };

/**
 * Runs the calls of one model turn from `start`, honouring `toolConcurrency`:
 * calls are prepared one at a time in call order and started as slots free up; results reach the
 * transcript in call order (each time the in-order run of finished calls grows); the first call that
 * waits for a person stops the batch after the calls before it settle. Every call gets exactly one
 * result, whatever happens: aborted or unreached calls get a `cancelled` result, and a propagating
 * error fills the rest with `not-run` results before it is rethrown once nothing runs any more.
 *
 * `first` decides the call at `start` instead of the usual preparation (an approval resume). With
 * `restNotRun`, the calls after it are not started: each gets a `not-run` result (an approval saved
 * without the rest of its batch).
 *
 * A call may also pause while it runs (a sub-agent waiting for a person): no new call starts, the
 * running ones settle, and the batch pauses on the first paused call. Calls after it that finished
 * come back as `settled` and are passed in again on resume, so they never run twice.
 */
export async function runToolBatch(
  scope: CallScope,
  calls: readonly ToolCall[],
  start: number,
  first?: (scope: CallScope) => Promise<PreparedCall>,
  restNotRun = false,
  settled?: Record<number, SettledCall>,
): Promise<BatchResult> {
  const { deps, snapshot } = scope;
  const signal = deps.signal;
  const limit = deps.toolConcurrency;
  const outcomes: (ToolOutcome | undefined)[] = new Array(calls.length);
  // Finished before a pause: already announced, they only wait for their place in the transcript and `toolCalls`.
  for (const [i, outcome] of Object.entries(settled ?? {})) outcomes[Number(i)] = outcome;
  const runningPaused = new Map<number, PendingApprovalInfo>();
  let flushed = start;
  let propagating: { error: unknown } | undefined;
  const running = new Set<Promise<void>>();
  let checkpointChain: Promise<void> = Promise.resolve();

  const record = (index: number, outcome: ToolOutcome) => {
    outcomes[index] = outcome;
    deps.tracer?.toolEnd(outcome);
    // Announced as it finishes (the UI shows it at once); recorded in call order below.
    announceOutcome(scope, outcome);
    // Append the in-order run of finished calls to the transcript and to `toolCalls`; checkpoint when it grows.
    let grew = false;
    while (flushed < calls.length && outcomes[flushed]) {
      snapshot.messages.push(toolMessage(outcomes[flushed]!));
      snapshot.toolCalls.push(toolCallRecord(outcomes[flushed]!));
      flushed++;
      grew = true;
    }
    if (grew && deps.checkpoint) {
      const cp = deps.checkpoint;
      checkpointChain = checkpointChain.then(() => cp(snapshot));
      // Awaited below; marked handled now so a failed write is not an unhandled rejection meanwhile.
      checkpointChain.catch(() => {});
    }
  };

  const launch = (index: number, work: Promise<ToolOutcome>) => {
    const task: Promise<void> = work.then(
      (outcome) => (outcome.paused ? void runningPaused.set(index, outcome.paused) : record(index, outcome)),
      (error) => {
        propagating ??= { error };
      },
    );
    const tracked = task.finally(() => running.delete(tracked));
    running.add(tracked);
  };

  let paused: { index: number; approval: PendingApprovalInfo } | undefined;
  let index = start;
  // A guardrail that ends the run (`snapshot.guardrail`) stops the batch like a propagating error;
  // a call that paused while it ran (a sub-agent waiting for a person) stops it from starting more.
  const stopped = () => signal?.aborted || propagating || snapshot.guardrail || runningPaused.size > 0;
  for (; index < calls.length; index++) {
    if (stopped()) break;
    if (outcomes[index]) continue;
    while (running.size >= limit) await Promise.race(running);
    if (stopped()) break;
    const call = calls[index]!;
    if (restNotRun && index > start) {
      launch(index, Promise.resolve(notRunOutcome(call, 'The approval this run resumed from did not keep this call, so it was never started.')));
      continue;
    }
    let prepared: PreparedCall;
    deps.tracer?.toolStart(call);
    try {
      if (index === start && first) {
        prepared = await first(scope);
      } else {
        prepared = await prepareCall(scope, call);
      }
    } catch (error) {
      propagating ??= { error };
      break;
    }
    if (prepared.kind === 'done') {
      launch(index, finishOutcome(scope, prepared, prepared.outcome));
      continue;
    }
    if (prepared.kind === 'pause') {
      paused = { index, approval: prepared.approval };
      break;
    }
    const run = prepared;
    launch(index, deps.tracer ? deps.tracer.runTool(call.id, run.ctx, () => executeCall(scope, run)) : executeCall(scope, run));
  }

  // No tool is left running detached: wait for everything in flight, whatever stopped the loop.
  while (running.size > 0) await Promise.allSettled([...running]);
  await checkpointChain;

  if (propagating) {
    for (let i = 0; i < calls.length; i++) {
      if (outcomes[i] || i < start) continue;
      record(i, notRunOutcome(calls[i]!, 'The run failed before this call was started.'));
    }
    await checkpointChain;
    throw propagating.error;
  }
  if (signal?.aborted) {
    for (let i = start; i < calls.length; i++) {
      if (outcomes[i]) continue;
      const call = calls[i]!;
      const error = cancelledError(call);
      record(i, { call, args: null, result: error, isError: true, error });
    }
    await checkpointChain;
    return { kind: 'aborted' };
  }
  // The first call that waits for a person, whether it paused before running or while it ran.
  for (const [i, approval] of runningPaused) if (!paused || i < paused.index) paused = { index: i, approval };
  if (paused) {
    const after: Record<number, SettledCall> = {};
    let any = false;
    for (let i = paused.index + 1; i < calls.length; i++) {
      const outcome = outcomes[i];
      if (!outcome) continue;
      after[i] = outcome;
      any = true;
    }
    return { kind: 'paused', ...paused, ...(any ? { settled: after } : {}) };
  }
  if (snapshot.guardrail) {
    for (let i = start; i < calls.length; i++) {
      if (!outcomes[i]) record(i, notRunOutcome(calls[i]!, `The guardrail '${snapshot.guardrail.name}' ended the run before this call was started.`));
    }
    await checkpointChain;
  }
  return { kind: 'done' };
}

function notRunOutcome(call: ToolCall, message: string): ToolOutcome {
  const error = toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'not-run', error: message });
  return { call, args: null, result: error, isError: true, error };
}

/**
 * Gives every call of a turn that will not run a `not-run` result (events, records, transcript,
 * checkpoint), so the transcript stays valid: e.g. when a budget ran out before the batch started.
 */
export async function answerUnstarted(scope: CallScope, calls: readonly ToolCall[], message: string): Promise<void> {
  for (const call of calls) {
    const outcome = notRunOutcome(call, message);
    scope.snapshot.toolCalls.push(announceOutcome(scope, outcome));
    scope.snapshot.messages.push(toolMessage(outcome));
  }
  await scope.deps.checkpoint?.(scope.snapshot);
}
