import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { inputToMessages, type AgentInput } from '@lousho/protocol';
import { runTraceOptions } from '../tracing/run-tracer.js';
import { emptyUsage } from '../usage/tracker.js';
import type { AgentSetup } from './agent-setup.js';
import type { AgentStores } from './agent-stores.js';
import type { ApprovalRecord } from '@lousho/protocol';
import { claimApproval, continuationFor, type ApprovalDecision } from './approval-resume.js';
import { checkClientDecision } from './client-result.js';
import type { AgentApprovals, ResumeOptions, AgentRun, RunOptions } from '@lousho/protocol';
import { driveRun } from './drive-run.js';
import { DurableLeg } from './durable.js';
import { newId } from './ids.js';
import type { LoopDeps } from './loop-deps.js';
import type { RunSnapshot, RunConfigContext } from '@lousho/protocol';
import { SessionAwaitingApprovalError, sessionBusyError } from './session-errors.js';
import type { SessionRegistry } from './session-registry.js';
import type { SessionRuntime } from './session-runtime.js';
import type { FinishReason } from '@lousho/protocol';
import { MessageQueue } from './message-queue.js';

/**
 * How an agent starts its runs: a turn (`send` / `stream`), the rest of a run a crash cut off
 * (`resume`), and the continuation of a run paused on an approval (`agent.approvals`). Each is one
 * leg driven by `driveRun`, whose config is resolved as the leg starts.
 */
export class AgentRuns {
  /** Messages sent while a turn runs: steered in at step boundaries, the next turn once one ends. */
  readonly queue: MessageQueue;

  constructor(
    readonly setup: AgentSetup,
    readonly stores: AgentStores,
    readonly registry: SessionRegistry,
  ) {
    this.queue = new MessageQueue(registry, (sessionId, input, metadata) => {
      const run = this.startTurn(input, { sessionId, ...(metadata ? { metadata } : {}) }, false);
      // Nobody reads this turn's stream: its events reach clients through the session's log.
      const done = (async () => {
        for await (const _ of run);
      })().catch(() => {});
      return { runId: run.runId, result: run.result, done };
    });
  }

  /** What a lead leg on `session` adds to its deps and params: steering at step boundaries, the queue's next turn at its end. */
  queueHooks(session: SessionRuntime): { takeSteered: () => ReturnType<MessageQueue['takeSteered']>; onEnded: (finishReason: FinishReason) => void } {
    return { takeSteered: () => this.queue.takeSteered(session), onEnded: (finishReason) => this.queue.afterLeg(session, finishReason) };
  }

  /** A new turn on a session (or, `mode: 'resume'`, the interrupted run from its last checkpoint). */
  startTurn(input: AgentInput, options: RunOptions, useApprove: boolean, mode: 'turn' | 'resume' = 'turn', force = true): AgentRun {
    const { setup, stores } = this;
    const sessionId = options.sessionId ?? newId('sess');
    const session = this.registry.sessionFor(sessionId);
    if (session.active) throw sessionBusyError(sessionId);
    if (session.status === 'awaiting-approval' && session.pendingApproval) {
      throw new SessionAwaitingApprovalError(sessionId, session.pendingApproval.approvalId);
    }
    // A run resumed from a crash checkpoint resolves its config again with no input and no metadata.
    const ctx: RunConfigContext =
      mode === 'resume' ? { sessionId, input: [] } : { sessionId, input, ...(options.metadata ? { metadata: options.metadata } : {}) };
    const snapshot = newSnapshot(sessionId, ctx, session.messages);
    const holder: { deps?: Omit<LoopDeps, 'emit' | 'signal'> } = {};
    const { takeSteered, onEnded } = this.queueHooks(session);
    return driveRun({
      onEnded,
      session,
      snapshot,
      input: inputToMessages(input),
      get deps() {
        return holder.deps!;
      },
      ...(options.signal ? { signal: options.signal } : {}),
      approvalStore: stores.approvalStore,
      buffered: !useApprove,
      trace: runTraceOptions(setup.config.traceExporter, options.traceParent, setup.config),
      durable: { leg: this.leg(sessionId), mode, ...(mode === 'resume' && force ? { force: true } : {}) },
      sessionStore: stores.sessionStore,
      prepare: async ({ recovered, snapshot: current }) => {
        // A recovered run keeps the model it resolved: it never switches mid-turn.
        const resolved = await setup.resolve(ctx, recovered ? current.model : undefined);
        if (!recovered) current.model = resolved.model;
        holder.deps = { ...setup.deps(resolved, useApprove), takeSteered };
      },
    });
  }

  /** The leg of `resume()` / `resumeStream()`: the interrupted run, from its last checkpoint. */
  async resume(sessionId: string, options: ResumeOptions, useApprove: boolean): Promise<AgentRun> {
    if (typeof sessionId !== 'string' || sessionId.length === 0) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, 'resume() needs the id of the session to resume.', { hint: 'Pass the sessionId the interrupted run used.' });
    }
    await this.registry.load(sessionId);
    const { force = true, signal } = options;
    return this.startTurn([], { sessionId, ...(signal ? { signal } : {}) }, useApprove, 'resume', force);
  }

  /** Records a decision on a paused call and runs the paused run on from it (under the session's lease). */
  async continueApproval(id: string, decision: ApprovalDecision, options: { signal?: AbortSignal }): Promise<AgentRun> {
    const { setup, stores } = this;
    const leg = await this.leaseFor(id);
    let record: ApprovalRecord;
    try {
      if (decision.kind === 'client') decision = await this.checkedClientDecision(id, decision);
      record = await claimApproval(stores.approvalStore, id, decision);
      if (!leg || record.sessionId !== leg.sessionId) throw sessionBusyError(record.sessionId);
    } catch (error) {
      await leg?.release();
      throw error;
    }
    const session = this.registry.sessionFor(record.sessionId);
    if (session.active) {
      await leg.release();
      throw sessionBusyError(record.sessionId);
    }
    const snapshot = record.snapshot;
    if (session.messages.length === 0) session.messages = snapshot.messages.slice();
    const holder: { deps?: Omit<LoopDeps, 'emit' | 'signal'> } = {};
    const { takeSteered, onEnded } = this.queueHooks(session);
    return driveRun({
      onEnded,
      session,
      snapshot,
      input: [],
      get deps() {
        return holder.deps!;
      },
      ...(options.signal ? { signal: options.signal } : {}),
      approvalStore: stores.approvalStore,
      continuation: continuationFor(record, decision),
      trace: runTraceOptions(setup.config.traceExporter, undefined, setup.config),
      durable: { leg, mode: 'approval' },
      sessionStore: stores.sessionStore,
      prepare: async () => {
        // The paused run keeps its model; tools are resolved again with the same ctx.
        holder.deps = { ...setup.deps(await setup.resolve(snapshot.configContext, snapshot.model), true), takeSteered };
      },
    });
  }

  /** A browser tool's result checked against the paused tool's `outputSchema` (under the lease, before the claim). */
  private async checkedClientDecision(id: string, decision: Extract<ApprovalDecision, { kind: 'client' }>): Promise<ApprovalDecision> {
    const record = await this.stores.approvalStore.get(id);
    // (Unknown, decided, or of another kind: the claim says so.)
    if (!record || record.status !== 'pending') return decision;
    const { setup } = this;
    return checkClientDecision(record, decision, async () => setup.deps(await setup.resolve(record.snapshot.configContext, record.snapshot.model), true).tools);
  }

  /**
   * The session's lease first, so a decision is only recorded when its continuation can run.
   * Undefined when the approval is not pending (claiming it then says why).
   */
  async leaseFor(id: string): Promise<DurableLeg | undefined> {
    const { approvalStore } = this.stores;
    const known = typeof id === 'string' && id.length > 0 ? await approvalStore.get(id) : undefined;
    // Claimed but never decided: by a process that died in between, if its lease is gone (a claim
    // is always made under the session's lease). Then nobody decided it: it is pending again.
    if (known?.status === 'resolving' && !known.decision) {
      const probe = this.leg(known.sessionId);
      const free = await probe.acquire().then(
        () => true,
        () => false,
      );
      if (free) {
        await approvalStore.release(id);
        known.status = 'pending';
      }
      await probe.release();
    }
    if (!known || known.status !== 'pending') return undefined;
    await this.registry.load(known.sessionId);
    if (this.registry.sessionFor(known.sessionId).active) throw sessionBusyError(known.sessionId);
    const leg = this.leg(known.sessionId);
    try {
      await leg.acquire();
    } catch (error) {
      // The session is paused on this approval, so whoever holds it is deciding it right now.
      if (SDKError.is(error) && error.code === ERROR_CODES.LOUSHO_SESSION_BUSY) {
        throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_NOT_PENDING, `Approval '${id}' is being decided by another caller.`, {
          hint: 'Each approval is decided once; list pending approvals with agent.approvals.list().',
        });
      }
      throw error;
    }
    return leg;
  }

  leg(sessionId: string): DurableLeg {
    return new DurableLeg(this.stores.checkpointStore, this.stores.approvalStore, sessionId);
  }

  /** `agent.approvals`. */
  approvals(): AgentApprovals {
    const toolDecision = (decision: { approved: boolean; note?: string }): ApprovalDecision => ({
      kind: 'tool',
      approved: Boolean(decision?.approved),
      ...(decision?.note ? { note: decision.note } : {}),
    });
    return {
      list: async (filter = {}) => {
        const records = await this.stores.approvalStore.list({ ...filter, status: 'pending' });
        return records.map(({ snapshot: _s, status: _st, createdAt: _c, decision: _d, ...request }) => request);
      },
      resolve: async (decision, options = {}) => (await this.continueApproval(decision?.id, toolDecision(decision), options)).result,
      answer: async (decision, options = {}) => (await this.continueApproval(decision?.id, { kind: 'question', answer: decision?.answer }, options)).result,
      resolveStream: (decision, options = {}) => this.continueApproval(decision?.id, toolDecision(decision), options),
      answerStream: (decision, options = {}) => this.continueApproval(decision?.id, { kind: 'question', answer: decision?.answer }, options),
      submitToolResult: async (decision, options = {}) => (await this.continueApproval(decision?.id, clientDecision(decision), options)).result,
      submitToolResultStream: (decision, options = {}) => this.continueApproval(decision?.id, clientDecision(decision), options),
    };
  }
}

/** What the page sent for a browser tool: its `error` when it has one, else its `result`. */
function clientDecision(decision: { id: string; result?: unknown; error?: string; toolCallId?: string }): ApprovalDecision {
  const call = decision?.toolCallId !== undefined ? { toolCallId: decision.toolCallId } : {};
  return decision?.error !== undefined ? { kind: 'client', error: decision.error, ...call } : { kind: 'client', result: decision?.result, ...call };
}

/** A new run's state: the session's transcript so far, nothing done yet. */
function newSnapshot(sessionId: string, configContext: RunConfigContext, messages: readonly RunSnapshot['messages'][number][]): RunSnapshot {
  return {
    runId: newId('run'),
    sessionId,
    model: '',
    configContext,
    messages: messages.slice(),
    runStart: messages.length,
    steps: 0,
    usage: emptyUsage(),
    stepUsage: [],
    toolCalls: [],
  };
}
