import { ERROR_CODES, SDKError } from '../errors.js';
import type { LLMProvider } from '../providers/types.js';
import { askQuestionTool } from '../tools/builtin/ask-question.js';
import { ToolRegistry } from '../tools/registry.js';
import type { AgentMcp } from './mcp-servers.js';
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
  // MCP servers connect on the first run, not when the agent is created.
  if (config.mcpServers !== undefined) return false;
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
  return { model, ...(system ? { system } : {}), tools: registry };
}
