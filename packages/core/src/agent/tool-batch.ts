import type { PendingApprovalInfo } from '@lousho/protocol';
import type { ToolCall } from '@lousho/protocol';
import { executeCall, prepareCall } from './call-stages.js';
import type { SettledCall } from '@lousho/protocol';
import { runPostHooks } from './stages/post-hooks.js';
import type { CallScope, PreparedCall, ToolOutcome } from './tool-call.js';
import { announceOutcome, cancelledError, errorOutcome, notRunOutcome, toolCallRecord, toolMessage } from './tool-outcome.js';

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
  const batch = new ToolBatch(scope, calls, start, settled);
  await batch.startCalls(first, restNotRun);
  // No tool is left running detached: wait for everything in flight, whatever stopped the loop.
  await batch.drain();
  return batch.end();
}

/** One batch as it runs: the outcomes so far, the calls still running, the transcript's in-order prefix. */
class ToolBatch {
  readonly outcomes: (ToolOutcome | undefined)[];
  /** Calls that paused while they ran (a sub-agent waiting for a person), by index. */
  readonly runningPaused = new Map<number, PendingApprovalInfo>();
  /** The first call that paused before it ran. */
  paused: { index: number; approval: PendingApprovalInfo } | undefined;
  /** Calls before it have their results in the transcript and `toolCalls`. */
  flushed: number;
  propagating: { error: unknown } | undefined;
  readonly running = new Set<Promise<void>>();
  checkpointChain: Promise<void> = Promise.resolve();

  constructor(
    readonly scope: CallScope,
    readonly calls: readonly ToolCall[],
    readonly start: number,
    settled: Record<number, SettledCall> | undefined,
  ) {
    this.outcomes = new Array(calls.length);
    this.flushed = start;
    // Finished before a pause: already announced, they only wait for their place in the transcript and `toolCalls`.
    for (const [i, outcome] of Object.entries(settled ?? {})) this.outcomes[Number(i)] = outcome;
  }

  /**
   * A guardrail that ends the run (`snapshot.guardrail`) stops the batch like a propagating error;
   * a call that paused while it ran (a sub-agent waiting for a person) stops it from starting more.
   */
  stopped(): boolean {
    return Boolean(this.scope.deps.signal?.aborted || this.propagating || this.scope.snapshot.guardrail || this.runningPaused.size > 0);
  }

  /** Prepares the calls one at a time in call order and starts each as a slot frees up, until one pauses or the batch stops. */
  async startCalls(first: ((scope: CallScope) => Promise<PreparedCall>) | undefined, restNotRun: boolean): Promise<void> {
    const { scope, calls, start } = this;
    for (let index = start; index < calls.length; index++) {
      if (this.stopped()) break;
      if (this.outcomes[index]) continue;
      while (this.running.size >= scope.deps.toolConcurrency) await Promise.race(this.running);
      if (this.stopped()) break;
      const call = calls[index]!;
      if (restNotRun && index > start) {
        this.launch(index, Promise.resolve(notRunOutcome(call, 'The approval this run resumed from did not keep this call, so it was never started.')));
        continue;
      }
      const prepared = await this.prepare(call, index === start ? first : undefined);
      if (!prepared) break;
      if (prepared.kind === 'pause') {
        this.paused = { index, approval: prepared.approval };
        break;
      }
      this.launch(index, this.run(prepared));
    }
  }

  /** The call's stages before it runs (`first` decides an approval resume's call instead); undefined when they threw. */
  async prepare(call: ToolCall, first: ((scope: CallScope) => Promise<PreparedCall>) | undefined): Promise<PreparedCall | undefined> {
    this.scope.deps.tracer?.toolStart(call);
    try {
      return first ? await first(this.scope) : await prepareCall(this.scope, call);
    } catch (error) {
      this.propagating ??= { error };
      return undefined;
    }
  }

  /** A call decided before it ran gets its post-hooks; one that runs goes through its stages (in its tracing span). */
  run(prepared: Exclude<PreparedCall, { kind: 'pause' }>): Promise<ToolOutcome> {
    const { scope } = this;
    if (prepared.kind === 'done') return runPostHooks(scope, prepared, prepared.outcome);
    const tracer = scope.deps.tracer;
    return tracer ? tracer.runTool(prepared.call.id, prepared.ctx, () => executeCall(scope, prepared)) : executeCall(scope, prepared);
  }

  launch(index: number, work: Promise<ToolOutcome>): void {
    const task: Promise<void> = work.then(
      (outcome) => (outcome.paused ? void this.runningPaused.set(index, outcome.paused) : this.record(index, outcome)),
      (error) => {
        this.propagating ??= { error };
      },
    );
    const tracked = task.finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  record(index: number, outcome: ToolOutcome): void {
    const { scope, calls, outcomes } = this;
    outcomes[index] = outcome;
    scope.deps.tracer?.toolEnd(outcome);
    // Announced as it finishes (the UI shows it at once); recorded in call order below.
    announceOutcome(scope, outcome);
    // Append the in-order run of finished calls to the transcript and to `toolCalls`; checkpoint when it grows.
    let grew = false;
    while (this.flushed < calls.length && outcomes[this.flushed]) {
      scope.snapshot.messages.push(toolMessage(outcomes[this.flushed]!));
      scope.snapshot.toolCalls.push(toolCallRecord(outcomes[this.flushed]!));
      this.flushed++;
      grew = true;
    }
    const cp = scope.deps.checkpoint;
    if (grew && cp) {
      this.checkpointChain = this.checkpointChain.then(() => cp(scope.snapshot));
      // Awaited below; marked handled now so a failed write is not an unhandled rejection meanwhile.
      this.checkpointChain.catch(() => {});
    }
  }

  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    await this.checkpointChain;
  }

  /** Every call without an outcome from `from` on gets one (`message`'s not-run result, or `cancelled`). */
  async fill(from: number, outcomeOf: (call: ToolCall) => ToolOutcome): Promise<void> {
    for (let i = from; i < this.calls.length; i++) if (!this.outcomes[i]) this.record(i, outcomeOf(this.calls[i]!));
    await this.checkpointChain;
  }

  /** How the batch ended, once nothing runs: every call has its result unless the batch paused. */
  async end(): Promise<BatchResult> {
    const { scope, start } = this;
    if (this.propagating) {
      await this.fill(start, (call) => notRunOutcome(call, 'The run failed before this call was started.'));
      throw this.propagating.error;
    }
    if (scope.deps.signal?.aborted) {
      await this.fill(start, (call) => errorOutcome(call, null, cancelledError(call)));
      return { kind: 'aborted' };
    }
    const paused = this.firstPaused();
    if (paused) return paused;
    const guardrail = scope.snapshot.guardrail;
    if (guardrail) await this.fill(start, (call) => notRunOutcome(call, `The guardrail '${guardrail.name}' ended the run before this call was started.`));
    return { kind: 'done' };
  }

  /** The first call that waits for a person, whether it paused before running or while it ran, with the calls after it that finished. */
  firstPaused(): Extract<BatchResult, { kind: 'paused' }> | undefined {
    let paused = this.paused;
    for (const [i, approval] of this.runningPaused) if (!paused || i < paused.index) paused = { index: i, approval };
    if (!paused) return undefined;
    const after: Record<number, SettledCall> = {};
    let any = false;
    for (let i = paused.index + 1; i < this.calls.length; i++) {
      const outcome = this.outcomes[i];
      if (!outcome) continue;
      after[i] = outcome;
      any = true;
    }
    return { kind: 'paused', ...paused, ...(any ? { settled: after } : {}) };
  }
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
