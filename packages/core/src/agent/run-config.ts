import { ERROR_CODES, SDKError } from '../errors.js';
import type { LLMProvider } from '../providers/types.js';
import { askQuestionTool } from '../tools/builtin/ask-question.js';
import { ToolRegistry } from '../tools/registry.js';
import type { AgentMcp } from './mcp-servers.js';
import { isCatalog, subagentsForRun, type SubagentsOption } from './subagents/catalog.js';
import { TASK_TOOL, taskTool, withSubagentListing } from './subagents/task-tool.js';
import type { AgentTools, CreateAgentConfig, PerRun, RunConfigContext } from './types.js';

/** Thrown when a per-run config function fails; `field` names the option, `cause` is what it threw. */
export class ConfigResolverError extends SDKError {
  readonly field: string;
  constructor(field: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(ERROR_CODES.LOUSHO_CONFIG_RESOLVER_FAILED, `The '${field}' function of the agent config threw: ${detail}`, {
      hint: `Make the '${field}' function return a value for every run (it receives { sessionId, input, metadata }).`,
      cause,
    });
    this.name = 'ConfigResolverError';
    this.field = field;
  }
}

export interface ResolvedRunConfig {
  model: string;
  system?: string;
  tools: ToolRegistry;
}

async function resolvePerRun<T>(field: string, value: PerRun<T> | undefined, ctx: RunConfigContext): Promise<T | undefined> {
  if (typeof value !== 'function') return value;
  try {
    return await (value as (ctx: RunConfigContext) => T | Promise<T>)(ctx);
  } catch (error) {
    throw new ConfigResolverError(field, error);
  }
}

export function toolRegistryFrom(tools: AgentTools | undefined, askQuestion: boolean | undefined): ToolRegistry {
  const registry = new ToolRegistry();
  if (tools) registry.registerMany(tools as never);
  if (askQuestion && !registry.has('ask_question')) registry.register(askQuestionTool());
  return registry;
}

export function isStaticConfig(config: CreateAgentConfig<any>): boolean {
  // MCP servers connect on the first run, not when the agent is created; a catalog lists per run.
  if (config.mcpServers !== undefined || isCatalog(config.subagents)) return false;
  return typeof config.model !== 'function' && typeof (config.instructions ?? config.prompt) !== 'function' && typeof config.tools !== 'function';
}

/**
 * Resolves `model`, `instructions` and `tools` for one run. `fixedModel` is the model a paused run
 * already resolved: a resumed run never switches model mid-turn.
 */
export async function resolveRunConfig(
  config: CreateAgentConfig<any>,
  provider: LLMProvider,
  ctx: RunConfigContext,
  fixedModel?: string,
  mcp?: AgentMcp,
): Promise<ResolvedRunConfig> {
  const model = fixedModel ?? (await resolvePerRun('model', config.model, ctx)) ?? provider.defaultModel ?? provider.name;
  const instructionsField = config.instructions !== undefined ? 'instructions' : 'prompt';
  const system = await resolvePerRun(instructionsField, config.instructions ?? config.prompt, ctx);
  const tools = await resolvePerRun('tools', config.tools, ctx);
  const registry = toolRegistryFrom(tools, config.askQuestion);
  // MCP tools join the agent's own; a name both have is refused (LOUSHO_DUPLICATE_TOOL).
  const mcpTools = await mcp?.toolsFor(ctx, (value, runCtx) => resolvePerRun('mcpServers', value, runCtx));
  if (mcpTools) registry.registerMany(mcpTools);
  const withListing = await addSubagents(registry, system, config.subagents, ctx);
  return { model, ...(withListing ? { system: withListing } : {}), tools: registry };
}

/**
 * With sub-agents, the agent gets the `task` tool and its prompt lists them. Returns the system
 * prompt to use. A catalog that fails to list fails the run like a config function.
 */
export async function addSubagents(registry: ToolRegistry, system: string | undefined, option: SubagentsOption | undefined, ctx: RunConfigContext): Promise<string | undefined> {
  if (option === undefined) return system;
  let subagents;
  try {
    subagents = await subagentsForRun(option, ctx);
  } catch (error) {
    throw new ConfigResolverError('subagents', error);
  }
  if (subagents.list.length === 0) return system;
  registry.register(TASK_TOOL, taskTool(subagents));
  return withSubagentListing(system, subagents.list);
}
