import { PIPE_EVENTS, type EventSink } from '../events/pipe.js';
import type { AgentStreamEvent, PendingApprovalInfo } from '../events/types.js';
import type { Message } from '../messages.js';
import { serializeError, SDKError } from '../errors.js';
import { STORE_ERROR_CODES } from '../stores/errors.js';
import type { RunState, SessionStore } from '../stores/types.js';
import { RunTracer, type RunTraceOptions } from '../tracing/run-tracer.js';
import type { ApprovalStore } from './approval-store.js';
import type { CheckpointNotes, DurableLeg, LegMode } from './durable.js';
import { endAbandonedLeg, syncSessionLog } from './interrupted-leg.js';
import { EventQueue } from './event-queue.js';
import { serialized } from './serial.js';
import { checkInputGuardrails } from './stages/guardrails.js';
import { emitListener, type LoopDeps } from './loop-deps.js';
import { addWaitingInput, runLoop, type BatchContinuation } from './run-loop.js';
import type { RunSnapshot } from './run-snapshot.js';
import type { SessionRuntime, SessionStatus } from './session-runtime.js';
import type { AgentRun, ExecutionResult } from './types.js';
import { copyWithSharedShape } from '../utils/shared-shape.js';

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
  const { session, approvalStore, sessionStore } = params;
  const durable = params.durable;
  const leg = durable?.leg;
  let snapshot = params.snapshot;
  const queue = new EventQueue();
  const buffered = params.buffered ?? true;
  let unsubscribe: (() => void) | undefined;
  // Appends are fenced by the leg's lease while it holds one (before that, a refusal happens first).
  // A leg that lost the session, or whose store failed, stores nothing more (see SessionRuntime.emit).
  const emit = (event: Parameters<LoopDeps['emit']>[0]) => session.emit(snapshot.runId, event, leg?.fence, leg?.held ?? false);
  /**
   * A checkpoint, once every event emitted before it is stored: the log never holds less than the
   * checkpoint, and the checkpoint says where it stands in the log (what a leg cut short after it
   * streamed, `run.interrupted` drops). A synchronous store writes at once, without a tick.
   */
  const save = (state: RunState, notes?: CheckpointNotes) => {
    const write = () => leg!.save(snapshot, state, { seq: session.lastSeq, ...notes });
    const pending = session.appending;
    return pending ? pending.then(write) : write();
  };
  const before: { status: SessionStatus; pendingApproval: PendingApprovalInfo | null } = { status: session.status, pendingApproval: session.pendingApproval };
  session.status = 'running';
  session.pendingApproval = null;
  const me = {};
  session.activeLeg = me;
  const leave = () => {
    if (session.activeLeg === me) session.activeLeg = undefined;
  };
  session.version++;
  const signal = runSignal(session, params.signal);
  const controller = session.abortController!;
  // The store failed a write of this leg: it can record nothing more, so it stops now. Its last
  // checkpoint stays as it is (`running`): the run is interrupted, and resumable once the store is back.
  if (leg) leg.onFailure = (error) => controller.abort(error);
  let started = false;
  let tracer: RunTracer | undefined;
  /** The leg's last events were emitted (`run.done`). */
  let ended = false;

  const result = (async (): Promise<ExecutionResult> => {
    try {
      let continuation = params.continuation;
      let recovered = false;
      if (leg && durable) {
        // Refusals (busy elsewhere, awaiting approval, nothing to resume) happen before any event of this leg.
        if (durable.mode !== 'approval') await leg.acquire(durable.force);
        if (sessionStore) {
          await syncSessionLog(session, sessionStore);
          if (durable.mode !== 'approval') await leg.finishPause(session.lastSeq);
          // A leg its process could not end (it died) is ended in the log first.
          await endAbandonedLeg(session, leg);
        }
        if (durable.mode !== 'approval') {
          const opening = await leg.open(durable.mode);
          if (opening.kind === 'recover') {
            snapshot = opening.snapshot;
            continuation = opening.continuation;
            recovered = true;
          } else if (opening.history && opening.history.length > 0) {
            snapshot.messages = opening.history.slice();
            snapshot.runStart = snapshot.messages.length;
          }
        }
        leg.checkpointer.adopt(snapshot);
      }
      if (buffered) unsubscribe = session.subscribe((event) => queue.push(event));
      started = true;
      if (params.trace) tracer = RunTracer.begin(params.trace, snapshot, continuation !== undefined);
      await params.prepare?.({ recovered, snapshot });
      const deps: LoopDeps = { ...params.deps, emit, signal, ...(leg ? { checkpoint: serialized(() => save('running')) } : {}), ...(tracer ? { tracer } : {}) };
      tracer?.configure(deps);

      // The session's log keeps every run; its first one says where in the transcript the log starts.
      const logStarts = session.runStartIndex === undefined;
      if (logStarts) session.runStartIndex = snapshot.runStart;
      session.messages = snapshot.messages;
      await sessionStore?.update(snapshot.sessionId, { status: 'running', pendingApproval: null, ...(logStarts ? { runStartIndex: session.runStartIndex } : {}) });
      emit({ type: 'run.start', model: snapshot.model, ...(continuation ? { continuation: true } : {}) });

      const appendInput = async (): Promise<boolean> => {
        for (const message of params.input) {
          const frozen = Object.freeze(copyWithSharedShape(message));
          snapshot.messages.push(frozen);
          emit({ type: 'user.message', message: frozen });
        }
        session.messages = snapshot.messages;
        if (params.input.length > 0) await deps.checkpoint?.(snapshot);
        return params.input.length > 0;
      };
      // Input guardrails see the input before it joins the transcript: a blocked input never reaches a
      // model. (A recovered run still finishes its interrupted turn, then ends on the block.)
      const blocked = await checkInputGuardrails(deps, snapshot, params.input);
      // A recovered run first finishes the interrupted turn: new input waits until the model has
      // answered it (docs/durable.md, "A new message to an interrupted session").
      // (The block is kept off the snapshot while the interrupted turn finishes: it would stop its tools.)
      if (blocked) {
        if (recovered) snapshot.guardrail = undefined;
      } else if (recovered && params.input.length > 0) snapshot.pendingInput = [...(snapshot.pendingInput ?? []), ...params.input];
      else if (!recovered) await appendInput();

      const runStartBefore = snapshot.runStart;
      let outcome: Awaited<ReturnType<typeof runLoop>> = blocked && !recovered ? { finishReason: 'guardrail', text: '', guardrail: blocked } : await runLoop(deps, snapshot, continuation);
      if (blocked && recovered && !outcome.paused && !outcome.guardrail && outcome.finishReason !== 'aborted') outcome = { ...outcome, finishReason: 'guardrail', guardrail: blocked };
      session.messages = snapshot.messages;
      // A compaction summary replaced messages of earlier runs: fewer transcript messages come before the log now.
      if (snapshot.runStart !== runStartBefore && session.runStartIndex !== undefined) session.runStartIndex = Math.max(0, session.runStartIndex - (runStartBefore - snapshot.runStart));
      session.lastUsage = snapshot.usage;

      let status: SessionStatus = 'idle';
      let pendingApproval: PendingApprovalInfo | null = null;
      if (outcome.paused) {
        const approval = outcome.paused.approval;
        await approvalStore.save({
          ...approval,
          sessionId: snapshot.sessionId,
          runId: snapshot.runId,
          status: 'pending',
          createdAt: Date.now(),
          snapshot: structuredClone(snapshot),
        });
        if (leg) await save('paused');
        status = 'awaiting-approval';
        pendingApproval = approval;
      } else if (leg) {
        await save('done', { finishReason: outcome.finishReason });
      }
      // Appends still on their way carry this leg's lease: let them land, and stop here if the store
      // failed one (the leg is interrupted: its end cannot be stored after a hole).
      await session.settled();
      if (leg?.failure) throw leg.failure.error;
      tracer?.finish(outcome.finishReason, outcome.paused?.approval.approvalId);
      // The leg's last events are stored while it still holds the lease (appends are fenced by it):
      // a reader that finds the lease free and a leg's end missing knows its process died. This
      // process's listeners get them once the lease is free, so one may start the next turn at once.
      session.holdListeners();
      if (outcome.paused) {
        const { subagent } = outcome.paused.approval;
        emit({ type: 'approval.requested', approval: outcome.paused.approval, ...(subagent ? { subagent } : {}) });
      }
      emit({
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
      });
      ended = true;
      await session.settled();
      // The status is stored while the lease is still held: another process never sees this leg
      // neither leased nor marked ended (which would look like a crash).
      await sessionStore?.update(snapshot.sessionId, { status, pendingApproval, ...(snapshot.runStart !== runStartBefore ? { runStartIndex: session.runStartIndex ?? 0 } : {}) });
      await leg?.release();
      session.status = status;
      session.pendingApproval = pendingApproval;
      leave();
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
    } catch (error) {
      if (!started) {
        // The leg never started: the session is as it was, and the stream ends with the error itself.
        await leg?.release();
        session.status = before.status;
        session.pendingApproval = before.pendingApproval;
        queue.fail(error);
        throw error;
      }
      tracer?.fail(error);
      session.messages = snapshot.messages;
      if (ended) {
        // The leg's end is in the log (or reached this process's listeners without a number when the
        // store failed it); only storing the session's status failed after it.
        session.status = 'idle';
        session.stale = true;
        await leg?.release();
        leave();
        session.releaseListeners();
        throw error;
      }
      const storeFailure = leg?.failure ?? (isStoreUnavailable(error) ? { error } : undefined);
      if (storeFailure || leg?.lost) {
        // Interrupted, not failed: nothing is written (the store is gone, or the session belongs to
        // the run that took over), the checkpoint stays `running`, and a resumed run goes on from it.
        await session.settled();
        await leg?.release();
        session.status = storeFailure && !leg?.lost ? 'interrupted' : 'idle';
        session.stale = true;
        leave();
        session.endUnstored(snapshot.runId, { type: 'error', error: serializeError(storeFailure?.error ?? error) }, leg?.fence, leg?.lost === true);
        await session.flush().catch(() => {});
        throw error;
      }
      session.status = 'idle';
      // Input that waited for the interrupted turn is kept (unanswered) with the failed run.
      addWaitingInput(snapshot, emit);
      session.messages = snapshot.messages;
      if (leg?.held) {
        // A failed run is over: the next turn starts a new one on the transcript as it stands.
        try {
          await save('done', { error: serializeError(error) });
        } catch {
          // The lease may be gone; the next turn then recovers from the last checkpoint.
        }
      }
      // As above: the end is stored under the lease, and reaches this process's listeners after it.
      session.holdListeners();
      emit({ type: 'error', error: serializeError(error) });
      await session.settled();
      try {
        await sessionStore?.update(snapshot.sessionId, { status: 'idle', pendingApproval: null });
      } catch {
        // The run's own error is the one to report.
      }
      await leg?.release();
      leave();
      session.releaseListeners();
      try {
        await session.flush();
      } catch {
        // Same: report the run's error.
      }
      throw error;
    } finally {
      leave();
      session.releaseListeners();
      await leg?.release();
      if (session.abortController?.signal === signal) session.abortController = undefined;
      unsubscribe?.();
      queue.close();
    }
  })();
  // A stream consumer that only iterates must not trigger an unhandled rejection; `result` still rejects.
  result.catch(() => {});

  const run: AgentRun = {
    get runId() {
      return snapshot.runId;
    },
    sessionId: snapshot.sessionId,
    result,
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
  };
  // startRun's way in: the events without a promise per event (not enumerable: not API).
  Object.defineProperty(run, PIPE_EVENTS, { value: (sink: EventSink) => queue.pipe(sink) });
  return run;
}

export type { AgentStreamEvent };
