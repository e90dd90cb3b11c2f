import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { inputToMessages } from '@lousho/protocol';
import { ToolRegistry } from '../tools/registry.js';
import { runTraceOptions } from '../tracing/run-tracer.js';
import { emptyUsage } from '../usage/tracker.js';
import type { AgentConfig } from './agent-config.js';
import { InMemoryApprovalStore } from '../stores/approval-store.js';
import { claimApproval, continuationFor, type ApprovalDecision } from './approval-resume.js';
import { driveRun } from './drive-run.js';
import { DurableLeg } from './durable.js';
import { newId } from './ids.js';
import { normalizeGuardrails } from '../guardrails/run-guardrails.js';
import type { LoopDeps } from './loop-deps.js';
import type { RunSnapshot } from '@lousho/protocol';
import { SessionRuntime } from './session-runtime.js';
import { normalizeSubagentDepth } from './agent-setup.js';
import { addSubagents } from './run-config.js';
import { checkSubagents } from './subagents/catalog.js';
import type { AgentRun, ExecutionResult } from '@lousho/protocol';
import { checkSkills } from '../skills/define-skill.js';
import { loadSkillTool } from '../skills/skill-tool.js';
import { checkExecuteOptions, checkResumeOptions } from './option-keys.js';
import { composeSystem } from './run-config.js';
import { checkLimits } from './stages/budget.js';
import type { ExecuteOptions, ResumeAfterApprovalOptions } from './execute-options.js';
export type { ExecuteOptions, ResumeAfterApprovalOptions } from './execute-options.js';

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
