import type { StandardSchemaV1 } from '@standard-schema/spec';
import { createAgent } from '../agent/create-agent.js';
import type { Agent } from '@lousho/protocol';
import type { McpConnector } from '../agent/mcp-servers.js';
import type { CreateAgentConfig } from '../agent/types.js';
import { ERROR_CODES } from '@lousho/protocol';
import { defineMemory } from '../memory/define-memory.js';
import { fileMemory } from '../memory/file-memory.js';
import { inMemoryMemory } from '../memory/storage-memory.js';
import { checkOptionKeys, type OptionKeys } from '@lousho/protocol';
import { closestName } from '@lousho/protocol';
import type { JSONSchema, LLMProvider } from '@lousho/protocol';
import { loadSkills } from '../skills/load-skills.js';
import type { Skill } from '@lousho/protocol';
import type { ToolDescriptor } from '@lousho/protocol';
import { checkAgentSpec, SpecError } from './parse-spec.js';
import { SPEC_BUILTIN_TOOLS } from './schema.js';
import type { AgentSpec } from '@lousho/protocol';

/** Validates a structured-output value against a JSON Schema (what `output` in a spec needs). */
export type OutputValidator = (schema: JSONSchema) => StandardSchemaV1['~standard']['validate'];

/**
 * The tools a spec's built-in name (`SPEC_BUILTIN_TOOLS`: http, current-date, day-name, todo) stands
 * for, by the names the agent uses. The built-in tools are in @lousho/tools, which core cannot import.
 */
export type SpecBuiltinTools = (name: (typeof SPEC_BUILTIN_TOOLS)[number]) => Record<string, ToolDescriptor>;

/** What `specToAgent()` takes besides the spec: the provider and the tools a spec refers to by name. */
export interface SpecToAgentOptions {
  /** The provider (default: from the spec's `model`, a `provider/model` string, and the environment's credentials). */
  provider?: LLMProvider;
  /** Tools the spec may name in `tools`, besides the built-ins: an array of defined tools, or descriptors by name. */
  tools?: readonly ToolDescriptor[] | Readonly<Record<string, ToolDescriptor>>;
  /** Connects the spec's `mcpServers` (`@lousho/build-ai-agent`'s `specToAgent` sets it). */
  mcpConnector?: McpConnector;
  /** Checks a reply against the spec's `output` JSON Schema (`@lousho/build-ai-agent`'s `specToAgent` sets it). */
  outputValidator?: OutputValidator;
  /** The tools behind the spec's built-in tool names (`@lousho/build-ai-agent`'s `specToAgent` sets it, from @lousho/tools). */
  builtinTools?: SpecBuiltinTools;
}

const SPEC_TO_AGENT_OPTION_KEYS: OptionKeys<SpecToAgentOptions> = { provider: true, tools: true, mcpConnector: true, outputValidator: true, builtinTools: true };

function toolsByName(given: SpecToAgentOptions['tools']): Map<string, ToolDescriptor> {
  const byName = new Map<string, ToolDescriptor>();
  if (Array.isArray(given)) for (const tool of given as readonly (ToolDescriptor & { name?: string })[]) byName.set(String(tool.name), tool);
  else if (given) for (const [name, tool] of Object.entries(given)) byName.set(name, tool);
  return byName;
}

/** A Standard Schema over a JSON Schema: the model is shown the schema as written; `validate` checks replies. */
function jsonSchemaOutput(schema: JSONSchema, validator: OutputValidator): StandardSchemaV1 {
  const validate = validator(schema);
  const props = { version: 1 as const, vendor: 'lousho-spec', validate, jsonSchema: { input: () => schema, output: () => schema } };
  return { '~standard': props } as StandardSchemaV1;
}

/**
 * Turns a spec (from `loadSpec()`, or an object) into a `createAgent()` agent. The spec is checked
 * first (`agentSpecSchema`); a tool name that is neither a built-in nor one of `options.tools` fails
 * naming the closest one.
 */
export function specToAgent(spec: AgentSpec, options: SpecToAgentOptions = {}): Agent {
  checkOptionKeys('specToAgent()', options, SPEC_TO_AGENT_OPTION_KEYS);
  const checked = checkAgentSpec(spec);
  return buildAgent(checked, options, []);
}

function buildAgent(spec: AgentSpec, options: SpecToAgentOptions, path: readonly (string | number)[]): Agent {
  const field = (...rest: (string | number)[]) => [...path, ...rest].reduce<string>((out, s) => (typeof s === 'number' ? `${out}[${s}]` : out ? `${out}.${s}` : s), '');
  const given = toolsByName(options.tools);
  const tools: Record<string, ToolDescriptor> = {};
  (spec.tools ?? []).forEach((name, i) => {
    if ((SPEC_BUILTIN_TOOLS as readonly string[]).includes(name)) {
      if (!options.builtinTools) {
        throw new SpecError(
          ERROR_CODES.LOUSHO_UNSUPPORTED_OPTION,
          `names the built-in tool '${name}', which @lousho/core's specToAgent() does not bundle (the built-in tools are in @lousho/tools).`,
          { field: field('tools', i) },
          "Import specToAgent from '@lousho/build-ai-agent' (it adds them), or pass { builtinTools }.",
        );
      }
      Object.assign(tools, options.builtinTools(name as (typeof SPEC_BUILTIN_TOOLS)[number]));
    } else if (given.has(name)) tools[name] = given.get(name)!;
    else {
      const known = [...SPEC_BUILTIN_TOOLS, ...given.keys()];
      const suggestion = closestName(name, known);
      throw new SpecError(
        ERROR_CODES.LOUSHO_INVALID_SPEC,
        `names the tool '${name}', which is neither a built-in nor a tool passed to specToAgent()${suggestion ? `: did you mean '${suggestion}'?` : '.'}`,
        { field: field('tools', i) },
        `Built-ins: ${SPEC_BUILTIN_TOOLS.join(', ')}. Pass your own with specToAgent(spec, { tools: [...] }).`,
      );
    }
  });

  if (!options.provider && spec.model === undefined) {
    throw new SpecError(ERROR_CODES.LOUSHO_INVALID_SPEC, 'is required when specToAgent() is given no provider (a `provider/model` string such as openai/gpt-4o-mini).', { field: field('model') }, 'Add `model:` to the spec, or pass { provider }.');
  }
  if (spec.output && !options.outputValidator) {
    throw new SpecError(
      ERROR_CODES.LOUSHO_UNSUPPORTED_OPTION,
      "needs a JSON Schema validator, which @lousho/core's specToAgent() does not bundle.",
      { field: field('output') },
      "Import specToAgent from '@lousho/build-ai-agent' (it validates with @lousho/mcp's JSON Schema support), or pass { outputValidator }.",
    );
  }

  let skills: Promise<Skill[]> | undefined;
  const skillsDir = spec.skills;
  const config: CreateAgentConfig<any> = {
    name: spec.name,
    ...(spec.description !== undefined ? { description: spec.description } : {}),
    ...(spec.instructions !== undefined ? { instructions: spec.instructions } : {}),
    ...(options.provider ? { provider: options.provider } : {}),
    ...(spec.model !== undefined ? { model: spec.model } : {}),
    ...(Object.keys(tools).length > 0 ? { tools } : {}),
    ...(spec.maxSteps !== undefined ? { maxSteps: spec.maxSteps } : {}),
    ...(spec.toolConcurrency !== undefined ? { toolConcurrency: spec.toolConcurrency } : {}),
    ...(spec.askQuestion !== undefined ? { askQuestion: spec.askQuestion } : {}),
    // The folder is read on the first run (and once): specToAgent() itself stays synchronous.
    ...(skillsDir !== undefined ? { skills: () => (skills ??= loadSkills(skillsDir)) } : {}),
    ...(spec.memory
      ? {
          memory: spec.memory.map((m) =>
            defineMemory({
              name: m.name,
              scope: m.scope,
              provider: m.dir !== undefined ? fileMemory({ dir: m.dir }) : inMemoryMemory(),
              ...(m.description !== undefined ? { description: m.description } : {}),
              ...(m.recall !== undefined ? { recall: m.recall === false ? false : stripUndefined(m.recall) } : {}),
            }),
          ),
        }
      : {}),
    ...(spec.mcpServers ? { mcpServers: spec.mcpServers as never } : {}),
    ...(options.mcpConnector ? { mcpConnector: options.mcpConnector } : {}),
    ...(spec.limits ? { limits: stripUndefined(spec.limits) } : {}),
    ...(spec.output && options.outputValidator ? { output: jsonSchemaOutput(spec.output as JSONSchema, options.outputValidator) } : {}),
  };
  if (spec.subagents && spec.subagents.length > 0) {
    // Each sub-agent is an agent of its own, built like the lead; the lead delegates to them with `task`.
    const children: Record<string, Agent> = {};
    spec.subagents.forEach((child, i) => {
      if (typeof child === 'string') {
        throw new SpecError(ERROR_CODES.LOUSHO_INVALID_SPEC, `is a file path ('${child}'): load the spec with loadSpec(), which reads sub-agent files.`, { field: field('subagents', i) }, "loadSpec('./agent.yaml')");
      }
      children[child.name] = buildAgent(child, options, [...path, 'subagents', i]);
    });
    (config as Record<string, unknown>).subagents = children;
  }
  return createAgent(config as never);
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
