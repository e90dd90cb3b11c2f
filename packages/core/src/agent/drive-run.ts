import { PIPE_EVENTS, type EventSink } from '@lousho/protocol';
import type { AgentStreamEvent, PendingApprovalInfo } from '@lousho/protocol';
import type { Message } from '@lousho/protocol';
import { serializeError, SDKError } from '@lousho/protocol';
import { STORE_ERROR_CODES } from '@lousho/store-kit';
import type { RunState, SessionStore, ApprovalStore, SessionStatus } from '@lousho/protocol';
import { RunTracer, type RunTraceOptions } from '../tracing/run-tracer.js';
import type { CheckpointNotes, DurableLeg, LegMode } from './durable.js';
import type { GuardrailInfo } from '@lousho/protocol';
import { endAbandonedLeg, syncSessionLog } from './interrupted-leg.js';
import { EventQueue } from './event-queue.js';
import { serialized } from './serial.js';
import { checkInputGuardrails } from './stages/guardrails.js';
import { emitListener, type LoopDeps } from './loop-deps.js';
import { addWaitingInput, runLoop, type LoopOutcome } from './run-loop.js';
import type { BatchContinuation } from './tool-call.js';
import type { RunSnapshot } from '@lousho/protocol';
import type { SessionRuntime } from './session-runtime.js';
import type { AgentRun, ExecutionResult } from '@lousho/protocol';
import { copyWithSharedShape } from '@lousho/protocol';

export interface DriveRunParams {
  session: SessionRuntime;
  snapshot: RunSnapshot;
  /** New user messages this run appends (emitted as `user.message`). */
  input: Message[];
  deps: Omit<LoopDeps, 'emit' | 'signal'>;
  signal?: AbortSignal;
  continuation?: BatchContinuation;
  approvalStore: ApprovalStore;
  /** Keep the events for a `for await` consumer (`stream()`); `send()` does not need them. */
  buffered?: boolean;
  /**
   * Runs inside the run's error handling, before the loop: e.g. resolving per-run config.
   * `recovered`: the leg continues a run a crash interrupted (its model is fixed).
   */
  prepare?: (info: { recovered: boolean; snapshot: RunSnapshot }) => Promise<void>;
  /**
   * Checkpointing under the session's lease. `turn` / `resume` legs acquire the lease and decide
   * from the checkpoint how to start; an `approval` leg comes with the lease already held.
   */
  durable?: { leg: DurableLeg; mode: LegMode; force?: boolean };
  /** Where the session's status is kept for other processes (createAgent's store). */
  sessionStore?: SessionStore;
  /** Tracing: the leg gets an `invoke_agent` span (see tracing/run-tracer.ts). */
  trace?: RunTraceOptions | undefined;
  /**
   * The leg ended (lease released, status set) and its end is about to reach this process's
   * listeners: the session's queue may start the next turn here (agent/message-queue.ts).
   */
  onEnded?: (finishReason: LoopOutcome['finishReason']) => void;
}

/** The store could not be reached or written (e.g. the database went away). */
function isStoreUnavailable(error: unknown): boolean {
  return SDKError.is(error) && error.code === STORE_ERROR_CODES.LOUSHO_STORE_UNAVAILABLE;
}

/** Combines the caller's signal with the session's own controller (which `stop()` uses). */
function runSignal(session: SessionRuntime, signal: AbortSignal | undefined): AbortSignal {
  const controller = new AbortController();
  session.abortController = controller;
  if (!signal) return controller.signal;
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}

/**
 * Runs one leg of a run (a new turn, a recovered run, or the continuation after an approval) on a
 * session: numbers its events, keeps the session's status, checkpoints it (with a durable leg),
 * stores a pause in the approval store, and turns failures into an `error` event. Returns the
 * stream of this leg's events and its result.
 */
export function driveRun(params: DriveRunParams): AgentRun {
  const driver = new LegDriver(params);
  const result = driver.run();
  // A stream consumer that only iterates must not trigger an unhandled rejection; `result` still rejects.
  result.catch(() => {});

  const run: AgentRun = {
    get runId() {
      return driver.snapshot.runId;
    },
    sessionId: driver.snapshot.sessionId,
    result,
    [Symbol.asyncIterator]: () => driver.queue[Symbol.asyncIterator](),
  };
  // startRun's way in: the events without a promise per event (not enumerable: not API).
  Object.defineProperty(run, PIPE_EVENTS, { value: (sink: EventSink) => driver.queue.pipe(sink) });
  return run;
}

/** Where a leg leaves its session: the status and pending approval stored once it ends. */
interface LegEnding {
  status: SessionStatus;
  pendingApproval: PendingApprovalInfo | null;
}

/** One leg as it runs: its session, its lease, its snapshot, its events' queue, and how far it got. */
class LegDriver {
  readonly session: SessionRuntime;
  readonly leg: DurableLeg | undefined;
  snapshot: RunSnapshot;
  readonly queue = new EventQueue();
  readonly signal: AbortSignal;
  /** What the session was before the leg: restored when the leg never starts. */
  readonly before: { status: SessionStatus; pendingApproval: PendingApprovalInfo | null };
  readonly me = {};
  unsubscribe: (() => void) | undefined;
  started = false;
  tracer: RunTracer | undefined;
  /** The leg's last events were emitted (`run.done`). */
  ended = false;
  /** Where the run's own messages started before the loop (compaction may move it back). */
  runStartBefore = 0;

  constructor(readonly params: DriveRunParams) {
    const session = (this.session = params.session);
    this.leg = params.durable?.leg;
    this.snapshot = params.snapshot;
    this.before = { status: session.status, pendingApproval: session.pendingApproval };
    session.status = 'running';
    session.pendingApproval = null;
    session.activeLeg = this.me;
    session.version++;
    this.signal = runSignal(session, params.signal);
    const controller = session.abortController!;
    // The store failed a write of this leg: it can record nothing more, so it stops now. Its last
    // checkpoint stays as it is (`running`): the run is interrupted, and resumable once the store is back.
    if (this.leg) this.leg.onFailure = (error) => controller.abort(error);
  }

  /** The leg, stage by stage: open (lease, log, recovery) → start → input → loop → keep the outcome → end. */
  async run(): Promise<ExecutionResult> {
    try {
      const { continuation, recovered } = this.leg ? await this.open() : { continuation: this.params.continuation, recovered: false };
      const deps = await this.start(continuation, recovered);
      const outcome = await this.loop(deps, continuation, recovered);
      const ending = await this.keep(outcome);
      await this.end(deps, outcome, ending);
      return this.resultOf(outcome);
    } catch (error) {
      return await this.fail(error);
    } finally {
      this.leave();
      this.session.releaseListeners();
      await this.leg?.release();
      if (this.session.abortController?.signal === this.signal) this.session.abortController = undefined;
      this.unsubscribe?.();
      this.queue.close();
    }
  }

  /** Appends are fenced by the leg's lease while it holds one. A leg that lost the session, or whose store failed, stores nothing more. */
  readonly emit = (event: Parameters<LoopDeps['emit']>[0]): void => this.session.emit(this.snapshot.runId, event, this.leg?.fence, this.leg?.held ?? false);

  leave(): void {
    if (this.session.activeLeg === this.me) this.session.activeLeg = undefined;
  }

  /**
   * A checkpoint, once every event emitted before it is stored: the log never holds less than the
   * checkpoint, and the checkpoint says where it stands in the log (what a leg cut short after it
   * streamed, `run.interrupted` drops). A synchronous store writes at once, without a tick.
   */
  save(state: RunState, notes?: CheckpointNotes): ReturnType<DurableLeg['save']> {
    const write = () => this.leg!.save(this.snapshot, state, { seq: this.session.lastSeq, ...notes });
    const pending = this.session.appending;
    return pending ? pending.then(write) : write();
  }

  /** A durable leg: its lease and the session's log first, then how it starts (a recovered run goes on from its checkpoint). */
  async open(): Promise<{ continuation: BatchContinuation | undefined; recovered: boolean }> {
    const { session, params } = this;
    const leg = this.leg!;
    const { mode, force } = params.durable!;
    let continuation = params.continuation;
    let recovered = false;
    // Refusals (busy elsewhere, awaiting approval, nothing to resume) happen before any event of this leg.
    if (mode !== 'approval') await leg.acquire(force);
    if (params.sessionStore) {
      await syncSessionLog(session, params.sessionStore);
      if (mode !== 'approval') await leg.finishPause(session.lastSeq);
      // A leg its process could not end (it died) is ended in the log first.
      await endAbandonedLeg(session, leg);
    }
    if (mode !== 'approval') {
      const opening = await leg.open(mode);
      if (opening.kind === 'recover') {
        this.snapshot = opening.snapshot;
        continuation = opening.continuation;
        recovered = true;
      } else if (opening.history && opening.history.length > 0) {
        this.snapshot.messages = opening.history.slice();
        this.snapshot.runStart = this.snapshot.messages.length;
      }
    }
    leg.checkpointer.adopt(this.snapshot);
    return { continuation, recovered };
  }

  /** The leg starts: its stream, its trace, the run's config (resolved now), `run.start`. */
  async start(continuation: BatchContinuation | undefined, recovered: boolean): Promise<LoopDeps> {
    const { session, snapshot, params, leg } = this;
    if (params.buffered ?? true) this.unsubscribe = session.subscribe((event) => this.queue.push(event));
    this.started = true;
    if (params.trace) this.tracer = RunTracer.begin(params.trace, snapshot, continuation !== undefined);
    await params.prepare?.({ recovered, snapshot });
    const tracer = this.tracer;
    const deps: LoopDeps = { ...params.deps, emit: this.emit, signal: this.signal, ...(leg ? { checkpoint: serialized(() => this.save('running')) } : {}), ...(tracer ? { tracer } : {}) };
    tracer?.configure(deps);

    // The session's log keeps every run; its first one says where in the transcript the log starts.
    const logStarts = session.runStartIndex === undefined;
    if (logStarts) session.runStartIndex = snapshot.runStart;
    session.messages = snapshot.messages;
    await params.sessionStore?.update(snapshot.sessionId, { status: 'running', pendingApproval: null, ...(logStarts ? { runStartIndex: session.runStartIndex } : {}) });
    this.emit({ type: 'run.start', model: snapshot.model, ...(continuation ? { continuation: true } : {}) });
    return deps;
  }

  /** Input guardrails → the input joins the transcript → the loop. */
  async loop(deps: LoopDeps, continuation: BatchContinuation | undefined, recovered: boolean): Promise<LoopOutcome> {
    const { session, snapshot } = this;
    const blocked = await this.admitInput(deps, recovered);
    this.runStartBefore = snapshot.runStart;
    let outcome: LoopOutcome = blocked && !recovered ? { finishReason: 'guardrail', text: '', guardrail: blocked } : await runLoop(deps, snapshot, continuation);
    if (blocked && recovered && !outcome.paused && !outcome.guardrail && outcome.finishReason !== 'aborted') outcome = { ...outcome, finishReason: 'guardrail', guardrail: blocked };
    session.messages = snapshot.messages;
    // A compaction summary replaced messages of earlier runs: fewer transcript messages come before the log now.
    if (snapshot.runStart !== this.runStartBefore && session.runStartIndex !== undefined) {
      session.runStartIndex = Math.max(0, session.runStartIndex - (this.runStartBefore - snapshot.runStart));
    }
    session.lastUsage = snapshot.usage;
    return outcome;
  }

  /**
   * Input guardrails see the input before it joins the transcript: a blocked input never reaches a
   * model. (A recovered run still finishes its interrupted turn, then ends on the block.) A recovered
   * run first finishes the interrupted turn: new input waits until the model has answered it
   * (docs/durable.md, "A new message to an interrupted session").
   */
  async admitInput(deps: LoopDeps, recovered: boolean): Promise<GuardrailInfo | undefined> {
    const { snapshot, params } = this;
    const blocked = await checkInputGuardrails(deps, snapshot, params.input);
    // (The block is kept off the snapshot while the interrupted turn finishes: it would stop its tools.)
    if (blocked) {
      if (recovered) snapshot.guardrail = undefined;
    } else if (recovered && params.input.length > 0) snapshot.pendingInput = [...(snapshot.pendingInput ?? []), ...params.input];
    else if (!recovered) {
      for (const message of params.input) {
        const frozen = Object.freeze(copyWithSharedShape(message));
        snapshot.messages.push(frozen);
        this.emit({ type: 'user.message', message: frozen });
      }
      this.session.messages = snapshot.messages;
      if (params.input.length > 0) await deps.checkpoint?.(snapshot);
    }
    return blocked;
  }

  /** The outcome is kept: a pause in the approval store, the checkpoint's state; then the appends land. */
  async keep(outcome: LoopOutcome): Promise<LegEnding> {
    const { snapshot, leg } = this;
    let ending: LegEnding = { status: 'idle', pendingApproval: null };
    if (outcome.paused) {
      const approval = outcome.paused.approval;
      await this.params.approvalStore.save({
        ...approval,
        sessionId: snapshot.sessionId,
        runId: snapshot.runId,
        status: 'pending',
        createdAt: Date.now(),
        snapshot: structuredClone(snapshot),
      });
      if (leg) await this.save('paused');
      ending = { status: 'awaiting-approval', pendingApproval: approval };
    } else if (leg) {
      await this.save('done', { finishReason: outcome.finishReason });
    }
    // Appends still on their way carry this leg's lease: let them land, and stop here if the store
    // failed one (the leg is interrupted: its end cannot be stored after a hole).
    await this.session.settled();
    if (leg?.failure) throw leg.failure.error;
    return ending;
  }

  /**
   * The leg's last events are stored while it still holds the lease (appends are fenced by it): a
   * reader that finds the lease free and a leg's end missing knows its process died. This process's
   * listeners get them once the lease is free, so one may start the next turn at once.
   */
  async end(deps: LoopDeps, outcome: LoopOutcome, ending: LegEnding): Promise<void> {
    const { session, snapshot } = this;
    this.tracer?.finish(outcome.finishReason, outcome.paused?.approval.approvalId);
    session.holdListeners();
    if (outcome.paused) {
      const { subagent } = outcome.paused.approval;
      this.emit({ type: 'approval.requested', approval: outcome.paused.approval, ...(subagent ? { subagent } : {}) });
    }
    this.emit(runDone(snapshot, outcome));
    this.ended = true;
    await session.settled();
    // The status is stored while the lease is still held: another process never sees this leg
    // neither leased nor marked ended (which would look like a crash).
    const movedStart = snapshot.runStart !== this.runStartBefore;
    await this.params.sessionStore?.update(snapshot.sessionId, { ...ending, ...(movedStart ? { runStartIndex: session.runStartIndex ?? 0 } : {}) });
    await this.leg?.release();
    session.status = ending.status;
    session.pendingApproval = ending.pendingApproval;
    this.leave();
    this.params.onEnded?.(outcome.finishReason);
    session.releaseListeners();
    if (outcome.paused) emitListener(deps, { type: 'approval-requested', runId: snapshot.runId, approval: outcome.paused.approval });
    emitListener(deps, {
      type: 'finish',
      runId: snapshot.runId,
      finishReason: outcome.finishReason,
      usage: snapshot.usage,
      text: outcome.text,
      ...(outcome.guardrail ? { guardrail: outcome.guardrail } : {}),
    });
    try {
      await session.flush();
    } catch {
      // The turn is complete in the store; only its last events were not stored. Their end reached
      // this process's listeners without a number (docs/postgres.md, "When things fail").
    }
  }

  resultOf(outcome: LoopOutcome): ExecutionResult {
    const { snapshot } = this;
    return {
      runId: snapshot.runId,
      sessionId: snapshot.sessionId,
      text: outcome.text,
      messages: snapshot.messages.slice(),
      steps: snapshot.steps,
      finishReason: outcome.finishReason,
      usage: snapshot.usage,
      stepUsage: snapshot.stepUsage.slice(),
      toolCalls: snapshot.toolCalls.slice(),
      ...(outcome.paused ? { approvalId: outcome.paused.approval.approvalId, pendingApproval: outcome.paused.approval } : {}),
      ...(outcome.object !== undefined ? { object: outcome.object } : {}),
      ...(outcome.outputError ? { outputError: outcome.outputError } : {}),
      ...(outcome.budget ? { budget: outcome.budget } : {}),
      ...(outcome.guardrail ? { guardrail: outcome.guardrail } : {}),
    };
  }

  /** A failure: refused before the leg started, after its end, by the store (interrupted), or of the run itself. */
  async fail(error: unknown): Promise<never> {
    const { session, snapshot, leg } = this;
    if (!this.started) return this.refuse(error);
    this.tracer?.fail(error);
    session.messages = snapshot.messages;
    if (this.ended) {
      // The leg's end is in the log (or reached this process's listeners without a number when the
      // store failed it); only storing the session's status failed after it.
      session.status = 'idle';
      session.stale = true;
      await leg?.release();
      this.leave();
      session.releaseListeners();
      throw error;
    }
    const storeFailure = leg?.failure ?? (isStoreUnavailable(error) ? { error } : undefined);
    if (storeFailure || leg?.lost) return this.interrupt(error, storeFailure);
    return this.failRun(error);
  }

  /** The leg never started: the session is as it was, and the stream ends with the error itself. */
  async refuse(error: unknown): Promise<never> {
    await this.leg?.release();
    this.session.status = this.before.status;
    this.session.pendingApproval = this.before.pendingApproval;
    this.queue.fail(error);
    throw error;
  }

  /**
   * Interrupted, not failed: nothing is written (the store is gone, or the session belongs to the
   * run that took over), the checkpoint stays `running`, and a resumed run goes on from it.
   */
  async interrupt(error: unknown, storeFailure: { error: unknown } | undefined): Promise<never> {
    const { session, leg } = this;
    await session.settled();
    await leg?.release();
    session.status = storeFailure && !leg?.lost ? 'interrupted' : 'idle';
    session.stale = true;
    this.leave();
    session.endUnstored(this.snapshot.runId, { type: 'error', error: serializeError(storeFailure?.error ?? error) }, leg?.fence, leg?.lost === true);
    await session.flush().catch(() => {});
    throw error;
  }

  /** The run failed: it is over (checkpoint `done` with its error), and its end is an `error` event. */
  async failRun(error: unknown): Promise<never> {
    const { session, snapshot, leg } = this;
    session.status = 'idle';
    // Input that waited for the interrupted turn is kept (unanswered) with the failed run.
    addWaitingInput(snapshot, this.emit);
    session.messages = snapshot.messages;
    if (leg?.held) {
      // A failed run is over: the next turn starts a new one on the transcript as it stands.
      try {
        await this.save('done', { error: serializeError(error) });
      } catch {
        // The lease may be gone; the next turn then recovers from the last checkpoint.
      }
    }
    // As on success: the end is stored under the lease, and reaches this process's listeners after it.
    session.holdListeners();
    this.emit({ type: 'error', error: serializeError(error) });
    await session.settled();
    try {
      await this.params.sessionStore?.update(snapshot.sessionId, { status: 'idle', pendingApproval: null });
    } catch {
      // The run's own error is the one to report.
    }
    await leg?.release();
    this.leave();
    session.releaseListeners();
    try {
      await session.flush();
    } catch {
      // Same: report the run's error.
    }
    throw error;
  }
}

/** The leg's `run.done` event. */
function runDone(snapshot: RunSnapshot, outcome: LoopOutcome): Parameters<LoopDeps['emit']>[0] {
  return {
    type: 'run.done',
    finishReason: outcome.finishReason,
    usage: snapshot.usage,
    text: outcome.text,
    steps: snapshot.steps,
    ...(outcome.paused ? { approvalId: outcome.paused.approval.approvalId } : {}),
    ...(outcome.object !== undefined ? { object: outcome.object } : {}),
    ...(outcome.outputError ? { outputError: outcome.outputError } : {}),
    ...(outcome.budget ? { budget: outcome.budget } : {}),
    ...(outcome.guardrail ? { guardrail: outcome.guardrail } : {}),
  };
}

export type { AgentStreamEvent };
