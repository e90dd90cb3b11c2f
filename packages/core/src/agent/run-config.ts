import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { memoryTools } from '../memory/memory-tools.js';
import { memorySlot, type MemorySlot } from '../memory/slot.js';
import type { RetryOptions } from '@lousho/providers';
import type { LLMProvider } from '@lousho/protocol';
import { checkSkills } from '../skills/define-skill.js';
import type { Skill } from '@lousho/protocol';
import { loadSkillTool, skillsSection } from '../skills/skill-tool.js';
import { askQuestionTool } from '../tools/builtin/ask-question.js';
import { ToolRegistry } from '../tools/registry.js';
import { loadNodeFiles } from '../utils/node-only.js';
import { checkFallbackModels } from './model-chain.js';
import { checkRetryOptions } from './option-keys.js';
import type { AgentMcp } from './mcp-servers.js';
import { isCatalog, subagentsForRun, type SubagentsOption } from './subagents/catalog.js';
import { TASK_TOOL, taskTool, withSubagentListing } from './subagents/task-tool.js';
import type { AgentTools, CreateAgentConfig, ProjectInstructions } from './types.js';
import type { PerRun, RunConfigContext } from '@lousho/protocol';
import { ConfigResolverError } from '../options/config-resolver-error.js';
export { ConfigResolverError } from '../options/config-resolver-error.js';

export interface ResolvedRunConfig {
  model: string;
  /** Instructions, project instructions and the list of skills. */
  system?: string;
  tools: ToolRegistry;
  /** The run's memories, bound to their slots. */
  memory?: readonly MemorySlot[];
  fallbackModels?: readonly string[];
  retry?: RetryOptions | boolean;
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

const PER_RUN_FIELDS = ['model', 'instructions', 'prompt', 'tools', 'skills', 'fallbackModels', 'retry', 'projectInstructions'] as const;

export function isStaticConfig(config: CreateAgentConfig<any>): boolean {
  // MCP servers connect on the first run, not when the agent is created; memory is per session;
  // a sub-agent catalog lists per run.
  if (config.mcpServers !== undefined || isCatalog(config.subagents) || (config.memory !== undefined && config.memory.length > 0)) return false;
  return PER_RUN_FIELDS.every((field) => typeof config[field] !== 'function');
}

/** Reads `projectInstructions` (`{ file }` from disk, in Node) as the text appended to the system prompt. */
export async function projectInstructionsText(value: ProjectInstructions | undefined): Promise<string | undefined> {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value !== 'object' || value === null || typeof value.file !== 'string' || value.file === '' || Object.keys(value).some((key) => key !== 'file')) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `projectInstructions must be a string or { file }, got ${JSON.stringify(value)?.slice(0, 80) ?? String(value)}.`, {
      hint: "e.g. projectInstructions: { file: 'AGENTS.md' }",
    });
  }
  const { readTextFile } = await loadNodeFiles(
    'projectInstructions: { file }',
    'In a browser or a worker, pass the instructions as a string.',
  );
  try {
    return (await readTextFile(value.file)).trim() || undefined;
  } catch (error) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `projectInstructions: cannot read the file '${value.file}' (${(error as { code?: string }).code ?? 'error'}).`, {
      hint: 'The path is relative to the working directory of the process.',
      cause: error,
    });
  }
}

/** The system prompt from its parts: instructions, project instructions, the list of skills. */
export function composeSystem(instructions: string | undefined, project: string | undefined, skills: readonly Skill[]): string | undefined {
  const parts: string[] = [];
  if (instructions) parts.push(instructions);
  if (project) parts.push(`## Project instructions\n${project}`);
  if (skills.length > 0) parts.push(skillsSection(skills));
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

/**
 * Resolves the per-run config for one run (stage "resolve config"): `model`, `instructions`,
 * `tools`, `projectInstructions`, `skills`, memory slots, `fallbackModels` and `retry`. `fixedModel`
 * is the model a paused run already resolved: a resumed run never switches model mid-turn.
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
  const instructions = await resolvePerRun(instructionsField, config.instructions ?? config.prompt, ctx);
  const project = await projectInstructionsText(await resolvePerRun('projectInstructions', config.projectInstructions, ctx));
  const skillList = await resolvePerRun('skills', config.skills, ctx);
  const skills = skillList === undefined ? [] : checkSkills(skillList);
  const tools = await resolvePerRun('tools', config.tools, ctx);
  const registry = toolRegistryFrom(tools, config.askQuestion);
  // load_skill exists only when there are skills; a tool of the same name is refused (LOUSHO_DUPLICATE_TOOL).
  if (skills.length > 0) registry.register('load_skill', loadSkillTool(skills));
  const memory: MemorySlot[] = [];
  for (const entry of config.memory ?? []) {
    const slot = await memorySlot(entry, ctx);
    memory.push(slot);
    registry.registerMany(memoryTools(slot));
  }
  // MCP tools join the agent's own; a name both have is refused (LOUSHO_DUPLICATE_TOOL).
  const mcpTools = await mcp?.toolsFor(ctx, (value, runCtx) => resolvePerRun('mcpServers', value, runCtx));
  if (mcpTools) registry.registerMany(mcpTools);
  const fallbackModels = checkFallbackModels(await resolvePerRun('fallbackModels', config.fallbackModels, ctx));
  const retry = await resolvePerRun('retry', config.retry, ctx);
  checkRetryOptions(retry);
  const system = await addSubagents(registry, composeSystem(instructions, project, skills), config.subagents, ctx);
  return {
    model,
    ...(system ? { system } : {}),
    tools: registry,
    ...(memory.length > 0 ? { memory } : {}),
    ...(fallbackModels && fallbackModels.length > 0 ? { fallbackModels } : {}),
    ...(retry !== undefined && retry !== false ? { retry } : {}),
  };
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
