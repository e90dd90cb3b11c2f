import { createCompactionHook } from '../compaction/hook.js';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { normalizeGuardrails } from '../guardrails/run-guardrails.js';
import { checkMemories } from '../memory/define-memory.js';
import type { LLMProvider } from '@lousho/protocol';
import { resolveProvider } from '@lousho/providers';
import type { LoopDeps } from './loop-deps.js';
import { agentMcp } from './mcp-servers.js';
import { modelChain } from './model-chain.js';
import { checkCreateAgentOptions } from './option-keys.js';
import { isStaticConfig, resolveRunConfig, type ResolvedRunConfig } from './run-config.js';
import { checkLimits } from './stages/budget.js';
import { checkSubagents } from './subagents/catalog.js';
import type { CreateAgentConfig } from './types.js';
import type { RunConfigContext } from '@lousho/protocol';

/** What every run of an agent is built from: its checked config, its provider, and how a run's config is resolved. */
export interface AgentSetup {
  /** The config as given (with a model string alone: the provider's default model as `model`). */
  config: CreateAgentConfig<any>;
  provider: LLMProvider;
  /** Resolves a run's config (once, at creation, when nothing in it depends on the run). `model`: a model the run keeps. */
  resolve(ctx: RunConfigContext, model: string | undefined): Promise<ResolvedRunConfig>;
  /** What the loop needs of the agent for one leg, from the run's resolved config. `useApprove`: `approve` decides approvals (`send()`). */
  deps(resolved: ResolvedRunConfig, useApprove: boolean): Omit<LoopDeps, 'emit' | 'signal'>;
  mcp: ReturnType<typeof agentMcp>;
}

/**
 * The stage "resolve config", once per agent: every option is checked when the agent is created (a
 * key createAgent() does not know is a mistake to report, never an option to ignore), and the
 * provider is built (a model string alone builds it from the environment's credentials).
 */
export function setUpAgent(given: CreateAgentConfig<any>): AgentSetup {
  checkCreateAgentOptions(given);
  const fromModelString = !given.provider && typeof given.model === 'string';
  const provider: LLMProvider | undefined = given.provider ?? (fromModelString ? resolveProvider(given.model as string) : undefined);
  if (!provider) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'createAgent() needs a `provider` or a `model` string such as \'openai/gpt-4o-mini\'.', {
      hint: "Pass `provider` (e.g. mockModel([...]) from '@lousho/build-ai-agent/testing', or a real provider), or `model: 'provider/model'`.",
    });
  }
  const config = fromModelString ? { ...given, model: provider.defaultModel ?? (given.model as string) } : given;
  const deps = depsBuilder(config, provider, fromModelString);
  const mcp = agentMcp(config);
  // With only static values the agent is built once, when it is created.
  const staticConfig: Promise<ResolvedRunConfig> | undefined = isStaticConfig(config) ? resolveRunConfig(config, provider, { input: [] }) : undefined;
  staticConfig?.catch(() => {});
  return {
    config,
    provider,
    mcp,
    deps,
    resolve: async (ctx, model) => (staticConfig ? await staticConfig : await resolveRunConfig(config, provider, ctx, model, mcp)),
  };
}

/** Checks the options the loop reads and returns how a leg's deps are built from them. */
function depsBuilder(config: CreateAgentConfig<any>, provider: LLMProvider, fromModelString: boolean): AgentSetup['deps'] {
  const maxSteps = normalizeMaxSteps(config.maxSteps);
  const toolConcurrency = normalizeConcurrency(config.toolConcurrency);
  const limits = checkLimits(config.limits);
  if (config.memory !== undefined) checkMemories(config.memory);
  const compactionHook = config.compaction ? createCompactionHook(config.compaction === true ? {} : config.compaction) : undefined;
  checkSubagents(config.subagents);
  const maxSubagentDepth = normalizeSubagentDepth(config.maxSubagentDepth);
  const guardrails = normalizeGuardrails(config.guardrails);
  const hookList = () => {
    const hooks = config.hooks ? ('list' in config.hooks ? config.hooks.list() : config.hooks) : [];
    return compactionHook ? [...hooks, compactionHook] : hooks;
  };
  return (resolved, useApprove) => {
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
      ...(config.files ? { files: config.files } : {}),
      ...(guardrails ? { guardrails } : {}),
      ...(config.output ? { output: config.output } : {}),
      ...(useApprove && config.approve ? { approve: config.approve } : {}),
      ...callbacksOf(config),
    };
  };
}

function callbacksOf(config: CreateAgentConfig<any>): Partial<Omit<LoopDeps, 'emit' | 'signal'>> {
  return {
    ...(config.onEvent ? { onEvent: config.onEvent } : {}),
    ...(config.onToolCall ? { onToolCall: config.onToolCall } : {}),
    ...(config.onToolResult ? { onToolResult: config.onToolResult } : {}),
    ...(config.onLLMResponse ? { onLLMResponse: config.onLLMResponse } : {}),
    ...(config.onPermissionDecision ? { onPermissionDecision: config.onPermissionDecision } : {}),
  };
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
