import type { AskQuestionTool } from '../tools/builtin/ask-question.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ERROR_CODES, SDKError } from '../errors.js';
import { inputToMessages, type AgentInput } from '../messages.js';
import type { LLMProvider } from '../providers/types.js';
import { resolveProvider } from '../providers/registry.js';
import { memoryStore, MemorySessionStore } from '../stores/memory-store.js';
import type { CheckpointStore, SessionStore, StoreSignals } from '../stores/types.js';
import { runTraceOptions } from '../tracing/run-tracer.js';
import { emptyUsage } from '../usage/tracker.js';
import type { ApprovalRecord, ApprovalStore } from './approval-store.js';
import { claimApproval, continuationFor, type ApprovalDecision } from './approval-resume.js';
import { driveRun } from './drive-run.js';
import { DurableLeg } from './durable.js';
import { newId } from './ids.js';
import { RemoteFollower } from './remote-follow.js';
import type { LoopDeps } from './loop-deps.js';
import { agentMcp } from './mcp-servers.js';
import { checkSubagents } from './subagents/catalog.js';
import { setDelegationHandle } from './subagents/handle.js';
import { normalizeGuardrails } from '../guardrails/run-guardrails.js';
import { isStaticConfig, resolveRunConfig, type ResolvedRunConfig } from './run-config.js';
import type { RunSnapshot } from './run-snapshot.js';
import { SessionAwaitingApprovalError, sessionBusyError } from './session-errors.js';
import { closeAbandonedLeg, lastLegOpen } from './interrupted-leg.js';
import { leaseStateOf } from './lease-state.js';
import { endsLeg } from '../events/ends-leg.js';
import { SessionRuntime } from './session-runtime.js';
import type { AgentRun, CreateAgentConfig, RunConfigContext, RunOptions } from './types.js';
import { createCompactionHook } from '../compaction/hook.js';
import { checkMemories } from '../memory/define-memory.js';
import { modelChain } from './model-chain.js';
import { checkCreateAgentOptions, checkRunOptions } from './option-keys.js';
import { checkLimits } from './stages/budget.js';
import type { Agent, SessionState, AgentApprovals, AgentSessions, ResumeOptions } from '../contracts/agent-session.js';
export type { Agent, AgentSession, SessionState, AgentApprovals, AgentSessions, ResumeOptions } from '../contracts/agent-session.js';

/** `C` with every key `T` does not have mapped to `never`, so a misspelt option is a type error. */
export type KnownKeysOnly<C, T> = C & { readonly [K in Exclude<keyof C, keyof T>]: never };

export { SessionAwaitingApprovalError };

type OutputOf<C> = C extends { output: infer S extends StandardSchemaV1 } ? StandardSchemaV1.InferOutput<S> : unknown;

/** The tools a config gives the agent, as a union of their types (for typed UI tool parts). */
type ToolListOf<T> = T extends readonly (infer E)[] ? E : T extends Readonly<Record<string, infer E>> ? E : never;
type ToolsOfConfig<C> = (C extends { tools: infer T }
  ? ToolListOf<T extends (...args: any[]) => infer R ? Awaited<R> : T>
  : never) | (C extends { askQuestion: true } ? AskQuestionTool : never);

function normalizeConcurrency(value: CreateAgentConfig['toolConcurrency']): number {
  if (value === undefined || value === 'unbounded') return Infinity;
  if (!Number.isInteger(value) || value < 1) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `toolConcurrency must be a positive integer or 'unbounded', got ${String(value)}.`, {
      hint: "Use 1 for strictly sequential tools, or 'unbounded' (the default).",
    });
  }
  return value;
}

export function normalizeSubagentDepth(value: number | undefined): number {
  if (value === undefined) return 1;
  if (!Number.isInteger(value) || value < 0) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `maxSubagentDepth must be a non-negative integer, got ${String(value)}.`, {
      hint: 'maxSubagentDepth is how deep sub-agents may nest (default 1: sub-agents do not delegate further).',
    });
  }
  return value;
}

function normalizeMaxSteps(value: number | undefined): number {
  if (value === undefined) return 10;
  if (!Number.isInteger(value) || value < 1) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `maxSteps must be a positive integer, got ${String(value)}.`, {
      hint: 'maxSteps is the number of model calls a run may make (default 10).',
    });
  }
  return value;
}

/** Creates an agent: `send()` / `stream()` runs, sessions, and approvals. */
export function createAgent<const C extends CreateAgentConfig<any>>(config: KnownKeysOnly<C, CreateAgentConfig<any>>): Agent<OutputOf<C>, ToolsOfConfig<C>> {
  type Out = OutputOf<C>;
  // A key createAgent() does not know is a mistake to report, never an option to ignore.
  checkCreateAgentOptions(config);
  // A model string alone is enough: `createAgent({ model: 'openai/gpt-4o-mini' })` builds the provider
  // from the environment's credentials (a missing key is a clear error naming the variable).
  const fromModelString = !config.provider && typeof config.model === 'string';
  const provider: LLMProvider | undefined = config.provider ?? (fromModelString ? resolveProvider(config.model as string) : undefined);
  if (!provider) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'createAgent() needs a `provider` or a `model` string such as \'openai/gpt-4o-mini\'.', {
      hint: "Pass `provider` (e.g. mockModel([...]) from '@lousho/build-ai-agent/testing', or a real provider), or `model: 'provider/model'`.",
    });
  }
  if (fromModelString) config = { ...config, model: provider.defaultModel ?? (config.model as string) };

  const maxSteps = normalizeMaxSteps(config.maxSteps);
  const toolConcurrency = normalizeConcurrency(config.toolConcurrency);
  const limits = checkLimits(config.limits);
  if (config.memory !== undefined) checkMemories(config.memory);
  const compactionHook = config.compaction ? createCompactionHook(config.compaction === true ? {} : config.compaction) : undefined;
  checkSubagents(config.subagents);
  const maxSubagentDepth = normalizeSubagentDepth(config.maxSubagentDepth);
  const guardrails = normalizeGuardrails(config.guardrails);
  const mcp = agentMcp(config);
  // Parts of the store that are not given live in memory (the default store).
  const store = config.store ?? {};
  // A fallback that keeps sessions or checkpoints next to a given store's keeps every session: the
  // given part would still have what it forgot.
  const partial = store.sessions !== undefined || store.checkpoints !== undefined;
  const fallback = store.sessions && store.checkpoints && (store.approvals || config.approvalStore) ? undefined : memoryStore(partial ? { maxSessions: Infinity } : {});
  // The memory session log fences appends by its own memory checkpoints' leases; next to a checkpoint
  // store of another kind it cannot see those leases, so it keeps the log without fencing.
  const sessionStore: SessionStore = store.sessions ?? (store.checkpoints ? new MemorySessionStore() : fallback!.sessions);
  const checkpointStore: CheckpointStore = store.checkpoints ?? fallback!.checkpoints;
  const approvalStore: ApprovalStore = config.approvalStore ?? store.approvals ?? fallback!.approvals;
  // Cross-process signals only make sense with the store's own session log (they announce its appends).
  const signals: StoreSignals | undefined = store.sessions ? store.signals : undefined;
  const followers = new Map<string, RemoteFollower>();
  const hookList = () => {
    const hooks = config.hooks ? ('list' in config.hooks ? config.hooks.list() : config.hooks) : [];
    return compactionHook ? [...hooks, compactionHook] : hooks;
  };
  const sessions = new Map<string, SessionRuntime>();
  // A session the store forgot on its own (memoryStore's bound) is forgotten here too, unless a
  // run of this process works on it.
  sessionStore.onEvict?.((id) => {
    const local = sessions.get(id);
    if (local && !local.active && local.status !== 'running') sessions.delete(id);
  });
  // With only static values the agent is built once, when it is created.
  const staticConfig: Promise<ResolvedRunConfig> | undefined = isStaticConfig(config)
    ? resolveRunConfig(config, provider, { input: [] })
    : undefined;
  staticConfig?.catch(() => {});

  const sessionFor = (id: string): SessionRuntime => {
    let session = sessions.get(id);
    if (!session) sessions.set(id, (session = new SessionRuntime(id, sessionStore)));
    return session;
  };

  const stateOf = (s: SessionRuntime): SessionState => ({
    id: s.id,
    messages: s.messages,
    status: s.status,
    pendingApproval: s.pendingApproval,
    lastSeq: s.lastSeq,
    runStartIndex: s.runStartIndex ?? s.messages.length,
    ...(s.owner !== undefined ? { owner: s.owner } : {}),
  });

  /** Brings the session's runtime up to date with the store (unless a run is going on here). */
  const loadSession = async (id: string): Promise<SessionState | undefined> => {
    const record = await sessionStore.get(id);
    const local = sessions.get(id);
    if (!record) return local && stateOf(local);
    // Up to date (nothing appended since), unless it shows another process's run, whose lease may have
    // run out, or followed one (`stale`: its events came, its transcript did not).
    if (local && (local.active || (local.lastSeq === record.lastSeq && local.version > 0 && local.status !== 'running' && !local.stale))) {
      local.owner = record.owner;
      return stateOf(local);
    }
    const version = local?.version ?? 0;
    const [checkpoint, events] = await Promise.all([checkpointStore.load(id), sessionStore.eventsAfter(id, 0)]);
    // The record was read before the log. When it says running but the log ends a leg, that leg
    // may have ended (and its process stored the end) in between: read the record again, or a
    // follower would wait for the end of a leg whose end it already has.
    const lastEvent = events.at(-1);
    const current = record.status === 'running' && lastEvent && endsLeg(lastEvent) ? ((await sessionStore.get(id)) ?? record) : record;
    const runtime = sessionFor(id);
    // A run started here while we were reading: its state is newer than what we read.
    if (runtime.active || runtime.version !== version) return stateOf(runtime);
    let status = current.status;
    let pendingApproval = current.pendingApproval;
    const run = checkpoint?.run;
    if (run?.state === 'paused' && run.paused) {
      // Paused, unless the approval was decided and only its continuation is missing (resume() runs it).
      const approval = await approvalStore.get(run.paused.approval.approvalId);
      const decided = approval !== undefined && approval.status === 'resolved';
      status = decided ? 'idle' : 'awaiting-approval';
      pendingApproval ??= run.paused.approval;
    } else if ((status === 'running' || status === 'interrupted') && !checkpoint?.leased) {
      // No process runs it: a run cut off (its process died, or lost the store) waits for resume()
      // or the next message; a run whose end was stored (only the record lagged) is over.
      status = run?.state === 'running' ? 'interrupted' : 'idle';
    } else if (status === 'interrupted') {
      // Leased: someone is resuming it right now.
      status = 'running';
    } else if (status === 'awaiting-approval' && !pendingApproval) {
      status = 'idle';
    }
    // With signals: the process running the leg stored its end, but its last events (`run.done`,
    // `approval.requested`) are still on their way. Shown as running, so a follower waits for them.
    if (signals && checkpoint?.leased && status !== 'running' && lastEvent && !endsLeg(lastEvent)) {
      status = 'running';
      pendingApproval = null;
    }
    runtime.hydrate({
      ...(record.owner !== undefined ? { owner: record.owner } : {}),
      status,
      pendingApproval: status === 'awaiting-approval' ? pendingApproval : null,
      runStartIndex: Math.min(record.runStartIndex, checkpoint?.messages.length ?? 0),
      lastSeq: record.lastSeq,
      messages: checkpoint?.messages ?? [],
      events,
    });
    runtime.version = Math.max(runtime.version, 1);
    // A leg nobody runs any more (its lease is gone) whose end is not in the log: its process died
    // (or lost its store). Ended in the log now (`run.interrupted` for a run cut off), so what this
    // load returns, and what followers anywhere see, says so without anybody sending anything.
    if (!checkpoint?.leased && lastLegOpen(events)) await closeAbandonedLeg(runtime, sessionStore, checkpointStore, approvalStore);
    return stateOf(runtime);
  };

  const baseDeps = (resolved: ResolvedRunConfig, useApprove: boolean): Omit<LoopDeps, 'emit' | 'signal'> => {
    // A chain per leg: which model answered is this run's to know.
    const chain = modelChain(provider, resolved.model, { fallbackModels: resolved.fallbackModels, retry: resolved.retry, modelStrings: fromModelString });
    return {
    provider: chain?.provider ?? provider,
    ...(chain ? { modelUsed: chain.modelUsed } : {}),
    ...(resolved.memory ? { memory: resolved.memory } : {}),
    ...(limits ? { limits } : {}),
    ...(resolved.system !== undefined ? { system: resolved.system } : {}),
    tools: resolved.tools,
    toolSpecs: resolved.tools.toToolSpecs(),
    maxSteps,
    toolConcurrency,
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.maxTokens !== undefined ? { maxTokens: config.maxTokens } : {}),
    hooks: hookList(),
    permissions: config.permissions ?? [],
    maxSubagentDepth,
    ...(config.sandbox ? { sandbox: config.sandbox } : {}),
    ...(guardrails ? { guardrails } : {}),
    ...(config.output ? { output: config.output } : {}),
    ...(useApprove && config.approve ? { approve: config.approve } : {}),
    ...(config.onEvent ? { onEvent: config.onEvent } : {}),
    ...(config.onToolCall ? { onToolCall: config.onToolCall } : {}),
    ...(config.onToolResult ? { onToolResult: config.onToolResult } : {}),
    ...(config.onLLMResponse ? { onLLMResponse: config.onLLMResponse } : {}),
    ...(config.onPermissionDecision ? { onPermissionDecision: config.onPermissionDecision } : {}),
    };
  };

  const startTurn = (input: AgentInput, options: RunOptions, useApprove: boolean, mode: 'turn' | 'resume' = 'turn', force = true): AgentRun<Out> => {
    const sessionId = options.sessionId ?? newId('sess');
    const session = sessionFor(sessionId);
    if (session.active) throw sessionBusyError(sessionId);
    if (session.status === 'awaiting-approval' && session.pendingApproval) {
      throw new SessionAwaitingApprovalError(sessionId, session.pendingApproval.approvalId);
    }
    // A run resumed from a crash checkpoint resolves its config again with no input and no metadata.
    const ctx: RunConfigContext =
      mode === 'resume' ? { sessionId, input: [] } : { sessionId, input, ...(options.metadata ? { metadata: options.metadata } : {}) };
    const snapshot: RunSnapshot = {
      runId: newId('run'),
      sessionId,
      model: '',
      configContext: ctx,
      messages: session.messages.slice(),
      runStart: session.messages.length,
      steps: 0,
      usage: emptyUsage(),
      stepUsage: [],
      toolCalls: [],
    };
    const holder: { deps?: Omit<LoopDeps, 'emit' | 'signal'> } = {};
    const run = driveRun({
      session,
      snapshot,
      input: inputToMessages(input),
      get deps() {
        return holder.deps!;
      },
      ...(options.signal ? { signal: options.signal } : {}),
      approvalStore,
      buffered: !useApprove,
      trace: runTraceOptions(config.traceExporter, options.traceParent, config),
      durable: { leg: new DurableLeg(checkpointStore, approvalStore, sessionId), mode, ...(mode === 'resume' && force ? { force: true } : {}) },
      sessionStore,
      prepare: async ({ recovered, snapshot: current }) => {
        // A recovered run keeps the model it resolved: it never switches mid-turn.
        const resolved = staticConfig
          ? await staticConfig
          : await resolveRunConfig(config, provider, ctx, recovered ? current.model : undefined, mcp);
        if (!recovered) current.model = resolved.model;
        holder.deps = baseDeps(resolved, useApprove);
      },
    });
    return run as AgentRun<Out>;
  };

  const continueApproval = async (id: string, decision: ApprovalDecision, options: { signal?: AbortSignal }): Promise<AgentRun<Out>> => {
    // The session's lease first, so a decision is only recorded when its continuation can run.
    const known = typeof id === 'string' && id.length > 0 ? await approvalStore.get(id) : undefined;
    let leg: DurableLeg | undefined;
    // Claimed but never decided: by a process that died in between, if its lease is gone (a claim
    // is always made under the session's lease). Then nobody decided it: it is pending again.
    if (known?.status === 'resolving' && !known.decision) {
      const probe = new DurableLeg(checkpointStore, approvalStore, known.sessionId);
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
    if (known && known.status === 'pending') {
      await loadSession(known.sessionId);
      if (sessionFor(known.sessionId).active) throw sessionBusyError(known.sessionId);
      leg = new DurableLeg(checkpointStore, approvalStore, known.sessionId);
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
    }
    let record: ApprovalRecord;
    try {
      record = await claimApproval(approvalStore, id, decision);
      if (!leg || record.sessionId !== leg.sessionId) throw sessionBusyError(record.sessionId);
    } catch (error) {
      await leg?.release();
      throw error;
    }
    const session = sessionFor(record.sessionId);
    if (session.active) {
      await leg.release();
      throw sessionBusyError(record.sessionId);
    }
    const snapshot = record.snapshot;
    if (session.messages.length === 0) session.messages = snapshot.messages.slice();
    const holder: { deps?: Omit<LoopDeps, 'emit' | 'signal'> } = {};
    const run = driveRun({
      session,
      snapshot,
      input: [],
      get deps() {
        return holder.deps!;
      },
      ...(options.signal ? { signal: options.signal } : {}),
      approvalStore,
      continuation: continuationFor(record, decision),
      trace: runTraceOptions(config.traceExporter, undefined, config),
      durable: { leg, mode: 'approval' },
      sessionStore,
      prepare: async () => {
        // The paused run keeps its model; tools are resolved again with the same ctx.
        const resolved = staticConfig ? await staticConfig : await resolveRunConfig(config, provider, snapshot.configContext, snapshot.model, mcp);
        holder.deps = baseDeps(resolved, true);
      },
    });
    return run as AgentRun<Out>;
  };

  const approvals: AgentApprovals<Out> = {
    async list(filter = {}) {
      const records = await approvalStore.list({ ...filter, status: 'pending' });
      return records.map(({ snapshot: _s, status: _st, createdAt: _c, decision: _d, ...request }) => request);
    },
    async resolve(decision, options = {}) {
      return (await continueApproval(decision?.id, { kind: 'tool', approved: Boolean(decision?.approved), ...(decision?.note ? { note: decision.note } : {}) }, options)).result;
    },
    async answer(decision, options = {}) {
      return (await continueApproval(decision?.id, { kind: 'question', answer: decision?.answer }, options)).result;
    },
    resolveStream(decision, options = {}) {
      return continueApproval(decision?.id, { kind: 'tool', approved: Boolean(decision?.approved), ...(decision?.note ? { note: decision.note } : {}) }, options);
    },
    answerStream(decision, options = {}) {
      return continueApproval(decision?.id, { kind: 'question', answer: decision?.answer }, options);
    },
  };

  /** Aborts the session's turn if it runs in this process. */
  function stopLocal(id: string): boolean {
    const s = sessions.get(id);
    if (!s?.abortController || s.status !== 'running') return false;
    s.abortController.abort();
    return true;
  }
  // A stop request from any process reaches the one running the turn (the others ignore it).
  signals?.onStopRequest((id) => void stopLocal(id));

  const sessionsApi: AgentSessions = {
    get(id) {
      const s = sessions.get(id);
      return s && stateOf(s);
    },
    eventsAfter(id, afterSeq, limit) {
      return sessions.get(id)?.eventsAfter(afterSeq, limit) ?? [];
    },
    subscribe(id, listener) {
      const session = sessionFor(id);
      const unsubscribe = session.subscribe(listener);
      if (!signals) return unsubscribe;
      // With signals, a subscriber also sees the runs of other processes (see RemoteFollower).
      let follower = followers.get(id);
      if (!follower) {
        const lease = { state: () => leaseStateOf(checkpointStore, id), closeAbandoned: () => closeAbandonedLeg(session, sessionStore, checkpointStore, approvalStore) };
        followers.set(id, (follower = new RemoteFollower(session, sessionStore, signals, lease)));
      }
      const unfollow = follower.add();
      return () => {
        unsubscribe();
        unfollow();
        if (!follower.used && followers.get(id) === follower) followers.delete(id);
      };
    },
    stop: stopLocal,
    async requestStop(id) {
      if (stopLocal(id)) return true;
      if (!signals) return false;
      // Running elsewhere? The store says so while that process holds the lease.
      const state = await loadSession(id);
      if (state?.status !== 'running') return false;
      if (stopLocal(id)) return true;
      await signals.requestStop(id);
      return true;
    },
    load: loadSession,
    async create(id, options = {}) {
      const { created, record } = await sessionStore.create(id, options.owner !== undefined ? { owner: options.owner } : {});
      const local = sessions.get(id);
      if (local) local.owner = record.owner;
      return created;
    },
  };

  /** The leg of `resume()` / `resumeStream()`: the interrupted run, from its last checkpoint. */
  const resumeLeg = async (sessionId: string, options: ResumeOptions, useApprove: boolean): Promise<AgentRun<Out>> => {
    if (typeof sessionId !== 'string' || sessionId.length === 0) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, 'resume() needs the id of the session to resume.', { hint: 'Pass the sessionId the interrupted run used.' });
    }
    await loadSession(sessionId);
    const { force = true, signal } = options;
    return startTurn([], { sessionId, ...(signal ? { signal } : {}) }, useApprove, 'resume', force);
  };

  const agent: Agent<Out, ToolsOfConfig<C>> = {
    ...(config.name !== undefined ? { name: config.name } : {}),
    ...(config.description !== undefined ? { description: config.description } : {}),
    send(input, options = {}) {
      try {
        checkRunOptions('send()', options);
        return startTurn(input, options, true).result;
      } catch (error) {
        return Promise.reject(error);
      }
    },
    stream(input, options = {}) {
      checkRunOptions('stream()', options);
      return startTurn(input, options, false);
    },
    session(id = newId('sess')) {
      return {
        id,
        get messages() {
          return sessions.get(id)?.messages ?? [];
        },
        send: (input, options = {}) => {
          try {
            checkRunOptions('session.send()', options, true);
          } catch (error) {
            return Promise.reject(error);
          }
          return agent.send(input, { ...options, sessionId: id });
        },
        stream: (input, options = {}) => {
          checkRunOptions('session.stream()', options, true);
          return agent.stream(input, { ...options, sessionId: id });
        },
      };
    },
    approvals,
    sessions: sessionsApi,
    async resume(sessionId, options = {}) {
      return (await resumeLeg(sessionId, options, true)).result;
    },
    resumeStream(sessionId, options = {}) {
      return resumeLeg(sessionId, options, false);
    },
    async close() {
      await mcp?.close();
    },
  };
  // Another agent's run may run this one as its sub-agent (a nested run, see subagents/run-child.ts).
  setDelegationHandle(agent, {
    async setup(ctx, fixedModel) {
      const resolved = staticConfig ? await staticConfig : await resolveRunConfig(config, provider, ctx, fixedModel, mcp);
      return {
        model: fixedModel ?? resolved.model,
        deps: baseDeps(resolved, false),
        ...(config.traceExporter ? { traceExporter: config.traceExporter } : {}),
        ...(config.description ? { description: config.description } : {}),
      };
    },
  });
  return agent;
}
