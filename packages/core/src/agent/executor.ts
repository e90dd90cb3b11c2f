import { ERROR_CODES, SDKError } from '../errors.js';
import { inputToMessages, type AgentInput, type Message } from '../messages.js';
import type { LLMProvider } from '../providers/types.js';
import type { CheckpointStore } from '../stores/types.js';
import { ToolRegistry } from '../tools/registry.js';
import { runTraceOptions } from '../tracing/run-tracer.js';
import type { TraceParent } from '../tracing/types.js';
import { emptyUsage } from '../usage/tracker.js';
import type { AgentConfig } from './agent-config.js';
import { InMemoryApprovalStore, type ApprovalStore } from './approval-store.js';
import { claimApproval, continuationFor, type ApprovalDecision } from './approval-resume.js';
import { driveRun } from './drive-run.js';
import { DurableLeg } from './durable.js';
import { newId } from './ids.js';
import { normalizeGuardrails } from '../guardrails/run-guardrails.js';
import type { LoopDeps } from './loop-deps.js';
import type { RunSnapshot } from './run-snapshot.js';
import { SessionRuntime } from './session-runtime.js';
import { normalizeSubagentDepth } from './agent-setup.js';
import { addSubagents } from './run-config.js';
import { checkSubagents } from './subagents/catalog.js';
import type { AgentRun, ApproveFn, ExecutionResult, LoopOptions } from './types.js';
import { checkSkills, type Skill } from '../skills/define-skill.js';
import { loadSkillTool } from '../skills/skill-tool.js';
import { checkExecuteOptions, checkResumeOptions } from './option-keys.js';
import { composeSystem } from './run-config.js';
import { checkLimits } from './stages/budget.js';

export interface ExecuteOptions extends LoopOptions {
  agent: AgentConfig;
  input: AgentInput;
  provider: LLMProvider;
  /** Where the tools named by `agent.tools` are looked up. */
  toolRegistry?: ToolRegistry;
  /** Earlier conversation to continue (no system prompt). */
  messages?: Message[];
  sessionId?: string;
  signal?: AbortSignal;
  /** Where a pause is kept (default: a process-wide in-memory store). */
  approvalStore?: ApprovalStore;
  /**
   * With `sessionId`: where the session's transcript and run state are checkpointed (after every
   * model response, tool result and pause). `execute()` again with the same `sessionId` resumes an
   * interrupted run, continues a finished conversation with the new input, or throws
   * `SessionAwaitingApprovalError` while an approval is pending. E.g. `memoryStore().checkpoints`
   * or `new SqliteStore(file).checkpoints`.
   */
  checkpointStore?: CheckpointStore;
  approve?: ApproveFn;
  /** Steps already taken by an earlier leg of this run; they count against `maxSteps`. */
  initialSteps?: number;
  metadata?: Record<string, unknown>;
  /** Skills: names and descriptions go in the system prompt; the model loads a body with `load_skill`. */
  skills?: readonly Skill[];
  /** The span this run nests under (e.g. a tool's `ctx.trace`); its exporter is used without `traceExporter`. */
  traceParent?: TraceParent;
}

/** What `resumeAfterApproval()` takes: the run's `execute()` options and the decision (`approved` with an optional `note`, or the `answer` to a question). */
export type ResumeAfterApprovalOptions = Omit<ExecuteOptions, 'input' | 'messages' | 'initialSteps'> & {
  approvalId: string;
} & ({ approved: boolean; note?: string; answer?: undefined } | { answer: string; approved?: undefined; note?: undefined });

const defaultApprovalStore = new InMemoryApprovalStore();

/** The tools an agent config may use, taken from its own descriptors and the registry. */
function toolsFor(agent: AgentConfig, registry: ToolRegistry | undefined): ToolRegistry {
  const out = new ToolRegistry();
  const names = agent.tools === undefined ? undefined : Array.isArray(agent.tools) ? (agent.tools as readonly string[]) : Object.keys(agent.tools);
  if (names === undefined) {
    if (registry) for (const name of registry.names()) out.register(name, registry.get(name)!);
    return out;
  }
  const record = Array.isArray(agent.tools) ? undefined : (agent.tools as Record<string, unknown>);
  for (const name of names) {
    const own = record?.[name];
    const descriptor = own && own !== true ? own : registry?.get(name);
    if (!descriptor) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Agent '${agent.name}' uses tool '${name}', which the toolRegistry does not have.`, {
        hint: `Register it (toolRegistry.register(...)) or remove '${name}' from the agent's tools.`,
      });
    }
    out.register(name, descriptor as never);
  }
  return out;
}

function depsFor(options: Omit<ExecuteOptions, 'input'>, useApprove: boolean): Omit<LoopDeps, 'emit' | 'signal'> {
  const { agent } = options;
  const tools = toolsFor(agent, options.toolRegistry);
  const skills = options.skills === undefined ? [] : checkSkills(options.skills);
  if (skills.length > 0) tools.register('load_skill', loadSkillTool(skills));
  const system = composeSystem(agent.instructions, undefined, skills);
  const limits = checkLimits(options.limits);
  const maxSteps = options.maxSteps ?? agent.maxSteps ?? 10;
  const concurrency = options.toolConcurrency ?? agent.toolConcurrency ?? 'unbounded';
  const temperature = options.temperature ?? agent.temperature;
  const maxTokens = options.maxTokens ?? agent.maxTokens;
  const hooks = options.hooks ? ('list' in options.hooks ? options.hooks.list() : options.hooks) : [];
  checkSubagents(options.subagents);
  const guardrails = normalizeGuardrails(options.guardrails);
  return {
    provider: options.provider,
    ...(system ? { system } : {}),
    ...(limits ? { limits } : {}),
    tools,
    toolSpecs: tools.toToolSpecs(),
    maxSteps,
    toolConcurrency: concurrency === 'unbounded' ? Infinity : concurrency,
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    hooks,
    permissions: options.permissions ?? [],
    maxSubagentDepth: normalizeSubagentDepth(options.maxSubagentDepth),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(guardrails ? { guardrails } : {}),
    ...(options.output ? { output: options.output } : {}),
    ...(useApprove && options.approve ? { approve: options.approve } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.onToolCall ? { onToolCall: options.onToolCall } : {}),
    ...(options.onToolResult ? { onToolResult: options.onToolResult } : {}),
    ...(options.onLLMResponse ? { onLLMResponse: options.onLLMResponse } : {}),
    ...(options.onPermissionDecision ? { onPermissionDecision: options.onPermissionDecision } : {}),
  };
}

/** `prepare` for driveRun: with `subagents`, the run's `task` tool and prompt listing (a catalog lists per run). */
function subagentsPreparer(options: Omit<ExecuteOptions, 'input'>, holder: { deps: Omit<LoopDeps, 'emit' | 'signal'> }) {
  if (options.subagents === undefined) return {};
  return {
    prepare: async ({ snapshot }: { snapshot: RunSnapshot }) => {
      const deps = holder.deps;
      const system = await addSubagents(deps.tools, deps.system, options.subagents, snapshot.configContext);
      holder.deps = { ...deps, ...(system !== undefined ? { system } : {}), toolSpecs: deps.tools.toToolSpecs() };
    },
  };
}

function startExecution(options: ExecuteOptions, useApprove: boolean): AgentRun {
  const sessionId = options.sessionId ?? newId('sess');
  const session = new SessionRuntime(sessionId);
  const history = (options.messages ?? []).slice();
  session.messages = history;
  const model = options.agent.model ?? options.provider.defaultModel ?? options.provider.name;
  const snapshot: RunSnapshot = {
    runId: newId('run'),
    sessionId,
    model,
    configContext: { sessionId, input: options.input, ...(options.metadata ? { metadata: options.metadata } : {}) },
    messages: history.slice(),
    runStart: history.length,
    steps: options.initialSteps ?? 0,
    usage: emptyUsage(),
    stepUsage: [],
    toolCalls: [],
  };
  const approvalStore = options.approvalStore ?? defaultApprovalStore;
  const holder = { deps: depsFor(options, useApprove) };
  return driveRun({
    session,
    snapshot,
    input: inputToMessages(options.input),
    get deps() {
      return holder.deps;
    },
    ...subagentsPreparer(options, holder),
    ...(options.signal ? { signal: options.signal } : {}),
    approvalStore,
    buffered: !useApprove,
    trace: runTraceOptions(options.traceExporter, options.traceParent, options.agent),
    ...(options.checkpointStore && options.sessionId !== undefined
      ? { durable: { leg: new DurableLeg(options.checkpointStore, approvalStore, sessionId), mode: 'turn' as const } }
      : {}),
  });
}

/** Runs an agent config: the model and tool-calling loop, to an `ExecutionResult`. */
export const AgentExecutor = {
  /**
   * Runs `options.agent` on `options.input` with `options.provider` and resolves when the run ends
   * or pauses. Stops, pauses and step limits resolve (read `finishReason`); a provider failure, a
   * throwing hook or `SessionAwaitingApprovalError` (a `sessionId` paused on an approval) rejects.
   */
  execute(options: ExecuteOptions): Promise<ExecutionResult> {
    try {
      checkExecuteOptions('AgentExecutor.execute()', options);
      return startExecution(options, true).result;
    } catch (error) {
      return Promise.reject(error);
    }
  },
  /** Like `execute`, as a stream of events. */
  stream(options: ExecuteOptions): AgentRun {
    checkExecuteOptions('AgentExecutor.stream()', options);
    return startExecution(options, false);
  },
};

/** Resumes an execution paused for approval: records the decision, then runs the rest of the turn and on. */
export async function resumeAfterApproval(options: ResumeAfterApprovalOptions, callOptions: { signal?: AbortSignal } = {}): Promise<ExecutionResult> {
  checkResumeOptions(options);
  const store = options.approvalStore ?? defaultApprovalStore;
  const decision: ApprovalDecision =
    options.answer !== undefined ? { kind: 'question', answer: options.answer } : { kind: 'tool', approved: Boolean(options.approved), ...(options.note ? { note: options.note } : {}) };
  // With a checkpoint store, the session's lease first: a decision is only recorded when its continuation can run.
  let leg: DurableLeg | undefined;
  if (options.checkpointStore) {
    const known = typeof options.approvalId === 'string' && options.approvalId ? await store.get(options.approvalId) : undefined;
    if (known && known.status === 'pending') {
      leg = new DurableLeg(options.checkpointStore, store, known.sessionId);
      await leg.acquire();
    }
  }
  let record;
  try {
    record = await claimApproval(store, options.approvalId, decision);
  } catch (error) {
    await leg?.release();
    throw error;
  }
  const session = new SessionRuntime(record.sessionId);
  session.messages = record.snapshot.messages.slice();
  const signal = callOptions.signal ?? options.signal;
  const holder = { deps: depsFor(options, true) };
  return driveRun({
    session,
    snapshot: record.snapshot,
    input: [],
    get deps() {
      return holder.deps;
    },
    ...subagentsPreparer(options, holder),
    ...(signal ? { signal } : {}),
    approvalStore: store,
    continuation: continuationFor(record, decision),
    trace: runTraceOptions(options.traceExporter, options.traceParent, options.agent),
    ...(leg && leg.sessionId === record.sessionId ? { durable: { leg, mode: 'approval' as const } } : {}),
  }).result;
}
