import type { AgentStreamEvent, PendingApprovalInfo } from '../events/types.js';
import type { Message } from '../messages.js';
import { serializeError } from '../errors.js';
import { SessionLeaseLostError } from '../stores/errors.js';
import type { SessionStore } from '../stores/types.js';
import type { ApprovalStore } from './approval-store.js';
import type { DurableLeg, LegMode } from './durable.js';
import { EventQueue } from './event-queue.js';
import { serialized } from './serial.js';
import { emitListener, type LoopDeps } from './loop-deps.js';
import { runLoop, type BatchContinuation } from './run-loop.js';
import type { RunSnapshot } from './run-snapshot.js';
import type { SessionRuntime, SessionStatus } from './session-runtime.js';
import type { AgentRun, ExecutionResult } from './types.js';

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
  const unsubscribe = buffered ? session.subscribe((event) => queue.push(event)) : undefined;
  // A run that lost the session to another one stops writing to the shared event log.
  // Appends are fenced by the leg's lease once it holds one (before that, a refusal happens first).
  const emit = (event: Parameters<LoopDeps['emit']>[0]) =>
    leg?.lost ? session.emitLocal(snapshot.runId, event) : session.emit(snapshot.runId, event, leg?.held ? leg.fence : undefined);
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
  let started = false;

  const result = (async (): Promise<ExecutionResult> => {
    try {
      let continuation = params.continuation;
      let recovered = false;
      if (leg && durable) {
        // Refusals (busy elsewhere, awaiting approval, nothing to resume) happen before any event.
        if (durable.mode !== 'approval') {
          await leg.acquire(durable.force);
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
      started = true;
      await params.prepare?.({ recovered, snapshot });
      const deps: LoopDeps = { ...params.deps, emit, signal, ...(leg ? { checkpoint: serialized((s: RunSnapshot) => leg.save(s, 'running')) } : {}) };

      // A new turn starts a new event log; a continuation (approval, recovery) extends the current one.
      if (!continuation) session.runStartIndex = snapshot.messages.length;
      else session.runStartIndex ??= snapshot.runStart;
      session.messages = snapshot.messages;
      await sessionStore?.update(snapshot.sessionId, { status: 'running', pendingApproval: null, runStartIndex: session.runStartIndex });
      emit({ type: 'run.start', model: snapshot.model, ...(continuation ? { continuation: true } : {}) });

      const appendInput = async (): Promise<boolean> => {
        for (const message of params.input) {
          const frozen = Object.freeze({ ...message });
          snapshot.messages.push(frozen);
          emit({ type: 'user.message', message: frozen });
        }
        session.messages = snapshot.messages;
        if (params.input.length > 0) await deps.checkpoint?.(snapshot);
        return params.input.length > 0;
      };
      // A recovered run first completes the interrupted turn; new input comes after it.
      if (recovered && continuation) continuation = { ...continuation, then: appendInput };
      else await appendInput();

      const outcome = await runLoop(deps, snapshot, continuation);
      session.messages = snapshot.messages;
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
        if (leg) await leg.save(snapshot, 'paused');
        else await deps.checkpoint?.(snapshot);
        status = 'awaiting-approval';
        pendingApproval = approval;
      } else if (leg) {
        await leg.save(snapshot, 'done');
      }
      // Appends still on their way carry this leg's lease: let them land before giving it up.
      await session.settled();
      // The status is stored while the lease is still held: another process never sees this leg
      // neither leased nor marked ended (which would look like a crash).
      await sessionStore?.update(snapshot.sessionId, { status, pendingApproval });
      await leg?.release();
      session.status = status;
      session.pendingApproval = pendingApproval;
      // A listener may start the next turn as soon as it sees the end.
      leave();
      if (outcome.paused) {
        const { subagent } = outcome.paused.approval;
        emit({ type: 'approval.requested', approval: outcome.paused.approval, ...(subagent ? { subagent } : {}) });
        emitListener(deps, { type: 'approval-requested', runId: snapshot.runId, approval: outcome.paused.approval });
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
      });
      emitListener(deps, { type: 'finish', runId: snapshot.runId, finishReason: outcome.finishReason, usage: snapshot.usage, text: outcome.text });
      await session.flush();

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
      session.messages = snapshot.messages;
      session.status = 'idle';
      if (leg?.held && !(error instanceof SessionLeaseLostError)) {
        // A failed run is over: the next turn starts a new one on the transcript as it stands.
        try {
          await leg.save(snapshot, 'done');
        } catch {
          // The lease may be gone; the next turn then recovers from the last checkpoint.
        }
      }
      await session.settled();
      try {
        // The session belongs to another run now: its status is that run's to write.
        if (!leg?.lost) await sessionStore?.update(snapshot.sessionId, { status: 'idle', pendingApproval: null });
      } catch {
        // The run's own error is the one to report.
      }
      await leg?.release();
      leave();
      emit({ type: 'error', error: serializeError(error) });
      try {
        await session.flush();
      } catch {
        // Same: report the run's error.
      }
      throw error;
    } finally {
      leave();
      await leg?.release();
      if (session.abortController?.signal === signal) session.abortController = undefined;
      unsubscribe?.();
      queue.close();
    }
  })();
  // A stream consumer that only iterates must not trigger an unhandled rejection; `result` still rejects.
  result.catch(() => {});

  return {
    get runId() {
      return snapshot.runId;
    },
    sessionId: snapshot.sessionId,
    result,
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
  };
}

export type { AgentStreamEvent };
