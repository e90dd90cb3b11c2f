import type { AgentStreamEvent } from '../events/types.js';
import type { Message } from '../messages.js';
import { serializeError } from '../errors.js';
import type { ApprovalStore } from './approval-store.js';
import { EventQueue } from './event-queue.js';
import { emitListener, type LoopDeps } from './loop-deps.js';
import { runLoop, type BatchContinuation } from './run-loop.js';
import type { RunSnapshot } from './run-snapshot.js';
import type { SessionRuntime } from './session-runtime.js';
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
  /** Runs inside the run's error handling, before the loop: e.g. resolving per-run config. */
  prepare?: () => Promise<void>;
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
 * Runs one leg of a run (a new turn, or the continuation after an approval) on a session:
 * numbers its events, keeps the session's status, stores a pause in the approval store, and
 * turns failures into an `error` event. Returns the stream of this leg's events and its result.
 */
export function driveRun(params: DriveRunParams): AgentRun {
  const { session, snapshot, approvalStore } = params;
  const queue = new EventQueue();
  const buffered = params.buffered ?? true;
  const runId = snapshot.runId;
  const emit = (event: Parameters<LoopDeps['emit']>[0]) => {
    const numbered = session.emit(runId, event);
    if (buffered) queue.push(numbered);
    return numbered;
  };
  session.status = 'running';
  session.pendingApproval = null;
  const signal = runSignal(session, params.signal);

  const result = (async (): Promise<ExecutionResult> => {
    try {
      await params.prepare?.();
      const deps: LoopDeps = { ...params.deps, emit, signal };
      emit({ type: 'run.start', model: snapshot.model, ...(params.continuation ? { continuation: true } : {}) });
      for (const message of params.input) {
        const frozen = Object.freeze({ ...message });
        snapshot.messages.push(frozen);
        emit({ type: 'user.message', message: frozen });
      }
      session.messages = snapshot.messages;
      if (params.input.length > 0) await deps.checkpoint?.(snapshot);

      const outcome = await runLoop(deps, snapshot, params.continuation);
      session.messages = snapshot.messages;
      session.lastUsage = snapshot.usage;

      if (outcome.paused) {
        const approval = outcome.paused.approval;
        await approvalStore.save({
          ...approval,
          sessionId: snapshot.sessionId,
          runId,
          status: 'pending',
          createdAt: Date.now(),
          snapshot: structuredClone(snapshot),
        });
        await deps.checkpoint?.(snapshot);
        session.status = 'awaiting-approval';
        session.pendingApproval = approval;
        emit({ type: 'approval.requested', approval });
        emitListener(deps, { type: 'approval-requested', runId, approval });
      } else {
        session.status = 'idle';
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
      emitListener(deps, { type: 'finish', runId, finishReason: outcome.finishReason, usage: snapshot.usage, text: outcome.text });

      return {
        runId,
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
      session.messages = snapshot.messages;
      session.status = 'idle';
      emit({ type: 'error', error: serializeError(error) });
      throw error;
    } finally {
      if (session.abortController?.signal === signal) session.abortController = undefined;
      queue.close();
    }
  })();
  // A stream consumer that only iterates must not trigger an unhandled rejection; `result` still rejects.
  result.catch(() => {});

  return {
    runId,
    sessionId: snapshot.sessionId,
    result,
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
  };
}

export type { AgentStreamEvent };
