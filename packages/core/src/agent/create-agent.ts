import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ERROR_CODES, SDKError } from '../errors.js';
import type { AgentStreamEvent, PendingApprovalInfo } from '../events/types.js';
import { inputToMessages, type AgentInput, type Message } from '../messages.js';
import type { LLMProvider } from '../providers/types.js';
import { emptyUsage } from '../usage/tracker.js';
import { InMemoryApprovalStore, type ApprovalRecord, type ApprovalStore } from './approval-store.js';
import { claimApproval, continuationFor, type ApprovalDecision } from './approval-resume.js';
import { driveRun } from './drive-run.js';
import { newId } from './ids.js';
import type { LoopDeps } from './loop-deps.js';
import { isStaticConfig, resolveRunConfig, type ResolvedRunConfig } from './run-config.js';
import type { RunSnapshot } from './run-snapshot.js';
import { SessionRuntime, type SessionListener, type SessionStatus } from './session-runtime.js';
import type { AgentRun, ApprovalRequest, CreateAgentConfig, ExecutionResult, RunConfigContext, RunOptions } from './types.js';

/** Thrown when a session paused on an approval gets new input. */
export class SessionAwaitingApprovalError extends SDKError {
  readonly sessionId: string;
  readonly approvalId: string;
  constructor(sessionId: string, approvalId: string) {
    super(ERROR_CODES.LOUSHO_SESSION_AWAITING_APPROVAL, `Session '${sessionId}' is waiting for a decision on approval '${approvalId}'.`, {
      hint: 'Resolve or answer the pending approval (agent.approvals.resolve / answer) before sending new input.',
    });
    this.name = 'SessionAwaitingApprovalError';
    this.sessionId = sessionId;
    this.approvalId = approvalId;
  }
}

type OutputOf<C> = C extends { output: infer S extends StandardSchemaV1 } ? StandardSchemaV1.InferOutput<S> : unknown;

/** What the UI layer and the HTTP handler read of a session. */
export interface SessionState {
  id: string;
  messages: readonly Message[];
  status: SessionStatus;
  pendingApproval: PendingApprovalInfo | null;
  lastSeq: number;
  /**
   * How many of `messages` came before the events `eventsAfter(id, 0)` still holds (the latest
   * run's log): a UI rebuilds its state from `messages.slice(0, runStartIndex)` plus those events.
   */
  runStartIndex: number;
}

export interface AgentSession<TObject = unknown> {
  readonly id: string;
  readonly messages: readonly Message[];
  send(input: AgentInput, options?: Omit<RunOptions, 'sessionId'>): Promise<ExecutionResult<TObject>>;
  stream(input: AgentInput, options?: Omit<RunOptions, 'sessionId'>): AgentRun<TObject>;
}

export interface AgentApprovals<TObject = unknown> {
  /** Pending approvals (optionally of one session), oldest first. */
  list(filter?: { sessionId?: string }): Promise<ApprovalRequest[]>;
  /** Runs (approved) or rejects the paused call and resolves with the continued run. */
  resolve(decision: { id: string; approved: boolean; note?: string }, options?: { signal?: AbortSignal }): Promise<ExecutionResult<TObject>>;
  /** Answers an `ask_question` pause; the answer becomes the call's result. */
  answer(decision: { id: string; answer: string }, options?: { signal?: AbortSignal }): Promise<ExecutionResult<TObject>>;
  /** Like `resolve`, but returns the continuation as a stream. */
  resolveStream(decision: { id: string; approved: boolean; note?: string }, options?: { signal?: AbortSignal }): Promise<AgentRun<TObject>>;
  /** Like `answer`, but returns the continuation as a stream. */
  answerStream(decision: { id: string; answer: string }, options?: { signal?: AbortSignal }): Promise<AgentRun<TObject>>;
}

/** Session access for UI clients and the HTTP handler. */
export interface AgentSessions {
  /** The session's state, or undefined if this agent has never seen it. */
  get(id: string): SessionState | undefined;
  /** Events of the session's latest run with `seq > afterSeq` (what a reconnecting stream missed). */
  eventsAfter(id: string, afterSeq: number): AgentStreamEvent[];
  /** Follow a session's events as they happen. */
  subscribe(id: string, listener: SessionListener): () => void;
  /** Stops the session's running turn, whoever started it. True if something was running. */
  stop(id: string): boolean;
}

export interface Agent<TObject = unknown> {
  readonly name?: string;
  readonly description?: string;
  send(input: AgentInput, options?: RunOptions): Promise<ExecutionResult<TObject>>;
  stream(input: AgentInput, options?: RunOptions): AgentRun<TObject>;
  session(id?: string): AgentSession<TObject>;
  readonly approvals: AgentApprovals<TObject>;
  readonly sessions: AgentSessions;
}

function normalizeConcurrency(value: CreateAgentConfig['toolConcurrency']): number {
  if (value === undefined || value === 'unbounded') return Infinity;
  if (!Number.isInteger(value) || value < 1) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `toolConcurrency must be a positive integer or 'unbounded', got ${String(value)}.`, {
      hint: "Use 1 for strictly sequential tools, or 'unbounded' (the default).",
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
export function createAgent<const C extends CreateAgentConfig<any>>(config: C): Agent<OutputOf<C>> {
  type Out = OutputOf<C>;
  const provider: LLMProvider | undefined = config.provider;
  if (!provider) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'createAgent() needs a `provider`.', {
      hint: "Pass `provider` (e.g. mockModel([...]) from '@lousho/build-ai-agent/testing', or a real provider).",
    });
  }
  const maxSteps = normalizeMaxSteps(config.maxSteps);
  const toolConcurrency = normalizeConcurrency(config.toolConcurrency);
  const approvalStore: ApprovalStore = config.approvalStore ?? new InMemoryApprovalStore();
  const hookList = () => (config.hooks ? ('list' in config.hooks ? config.hooks.list() : config.hooks) : []);
  const sessions = new Map<string, SessionRuntime>();
  // Transcript length when each session's event log (re)started: see SessionState.runStartIndex.
  const runStarts = new Map<string, number>();
  // With only static values the agent is built once, when it is created.
  const staticConfig: Promise<ResolvedRunConfig> | undefined = isStaticConfig(config)
    ? resolveRunConfig(config, provider, { input: [] })
    : undefined;
  staticConfig?.catch(() => {});

  const sessionFor = (id: string): SessionRuntime => {
    let session = sessions.get(id);
    if (!session) {
      const created = (session = new SessionRuntime(id));
      sessions.set(id, session);
      // Runs first among the listeners, before the run appends its input to `messages`.
      created.subscribe((event) => {
        if (event.type === 'run.start' && (!event.continuation || !runStarts.has(id))) runStarts.set(id, created.messages.length);
      });
    }
    return session;
  };

  const baseDeps = (resolved: ResolvedRunConfig, useApprove: boolean): Omit<LoopDeps, 'emit' | 'signal'> => ({
    provider,
    ...(resolved.system !== undefined ? { system: resolved.system } : {}),
    tools: resolved.tools,
    toolSpecs: resolved.tools.toToolSpecs(),
    maxSteps,
    toolConcurrency,
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.maxTokens !== undefined ? { maxTokens: config.maxTokens } : {}),
    hooks: hookList(),
    permissions: config.permissions ?? [],
    ...(config.sandbox ? { sandbox: config.sandbox } : {}),
    ...(config.output ? { output: config.output } : {}),
    ...(useApprove && config.approve ? { approve: config.approve } : {}),
    ...(config.onEvent ? { onEvent: config.onEvent } : {}),
    ...(config.onToolCall ? { onToolCall: config.onToolCall } : {}),
    ...(config.onToolResult ? { onToolResult: config.onToolResult } : {}),
    ...(config.onLLMResponse ? { onLLMResponse: config.onLLMResponse } : {}),
    ...(config.onPermissionDecision ? { onPermissionDecision: config.onPermissionDecision } : {}),
  });

  const startTurn = (input: AgentInput, options: RunOptions, useApprove: boolean): AgentRun<Out> => {
    const sessionId = options.sessionId ?? newId('sess');
    const session = sessionFor(sessionId);
    if (session.status === 'running') {
      throw new SDKError(ERROR_CODES.LOUSHO_SESSION_BUSY, `Session '${sessionId}' is already running a turn.`, {
        hint: 'Wait for the current turn to finish, or stop it first.',
      });
    }
    if (session.status === 'awaiting-approval' && session.pendingApproval) {
      throw new SessionAwaitingApprovalError(sessionId, session.pendingApproval.approvalId);
    }
    const ctx: RunConfigContext = { sessionId, input, ...(options.metadata ? { metadata: options.metadata } : {}) };
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
      prepare: async () => {
        const resolved = staticConfig ? await staticConfig : await resolveRunConfig(config, provider, ctx);
        snapshot.model = resolved.model;
        holder.deps = baseDeps(resolved, useApprove);
      },
    });
    return run as AgentRun<Out>;
  };

  const continueApproval = async (id: string, decision: ApprovalDecision, options: { signal?: AbortSignal }): Promise<AgentRun<Out>> => {
    const record: ApprovalRecord = await claimApproval(approvalStore, id, decision);
    const session = sessionFor(record.sessionId);
    if (session.status === 'running') {
      await approvalStore.release(id);
      throw new SDKError(ERROR_CODES.LOUSHO_SESSION_BUSY, `Session '${record.sessionId}' is already running a turn.`, { hint: 'Wait for it to finish.' });
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
      prepare: async () => {
        // The paused run keeps its model; tools are resolved again with the same ctx.
        const resolved = staticConfig ? await staticConfig : await resolveRunConfig(config, provider, snapshot.configContext, snapshot.model);
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

  const sessionsApi: AgentSessions = {
    get(id) {
      const s = sessions.get(id);
      if (!s) return undefined;
      return { id: s.id, messages: s.messages, status: s.status, pendingApproval: s.pendingApproval, lastSeq: s.lastSeq, runStartIndex: runStarts.get(id) ?? s.messages.length };
    },
    eventsAfter(id, afterSeq) {
      return sessions.get(id)?.eventsAfter(afterSeq) ?? [];
    },
    subscribe(id, listener) {
      return sessionFor(id).subscribe(listener);
    },
    stop(id) {
      const s = sessions.get(id);
      if (!s?.abortController || s.status !== 'running') return false;
      s.abortController.abort();
      return true;
    },
  };

  const agent: Agent<Out> = {
    ...(config.name !== undefined ? { name: config.name } : {}),
    ...(config.description !== undefined ? { description: config.description } : {}),
    send(input, options = {}) {
      try {
        return startTurn(input, options, true).result;
      } catch (error) {
        return Promise.reject(error);
      }
    },
    stream(input, options = {}) {
      return startTurn(input, options, false);
    },
    session(id = newId('sess')) {
      return {
        id,
        get messages() {
          return sessions.get(id)?.messages ?? [];
        },
        send: (input, options = {}) => agent.send(input, { ...options, sessionId: id }),
        stream: (input, options = {}) => agent.stream(input, { ...options, sessionId: id }),
      };
    },
    approvals,
    sessions: sessionsApi,
  };
  return agent;
}
