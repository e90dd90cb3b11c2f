import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { DefinedTool, ToolDescriptor } from '@lousho/protocol';
import type { AgentConfig } from './agent-config.js';
import type { ToolConcurrency } from './types.js';

/** Fluent builder for an `AgentConfig`: `AgentBuilder.create().setName('x')...build()`. */
export class AgentBuilder {
  #config: Partial<AgentConfig> & { tools: Record<string, ToolDescriptor | true> } = { tools: {} };

  /** A new builder; `name` is the same as calling `setName(name)`. */
  static create(name?: string): AgentBuilder {
    const builder = new AgentBuilder();
    if (name !== undefined) builder.setName(name);
    return builder;
  }

  /** The agent's name (required by `build()`): it names its traces and its runs. */
  setName(name: string): this {
    this.#config.name = name;
    return this;
  }

  /** What the agent does, for the people and agents that pick it. */
  setDescription(description: string): this {
    this.#config.description = description;
    return this;
  }

  /** The system instructions the model gets on every call. */
  setInstructions(instructions: string): this {
    this.#config.instructions = instructions;
    return this;
  }

  /** Alias of `setInstructions`. */
  setSystemPrompt(prompt: string): this {
    return this.setInstructions(prompt);
  }

  /** The model id sent to the provider (the provider's default model when unset). */
  setModel(model: string): this {
    this.#config.model = model;
    return this;
  }

  /** Adds a `defineTool()` tool, or a descriptor under `name`; throws `LOUSHO_DUPLICATE_TOOL` on a name already added. */
  addTool(tool: DefinedTool): this;
  addTool(name: string, descriptor?: ToolDescriptor): this;
  addTool(toolOrName: DefinedTool | string, descriptor?: ToolDescriptor): this {
    const name = typeof toolOrName === 'string' ? toolOrName : toolOrName.name;
    if (this.#config.tools[name]) {
      throw new SDKError(ERROR_CODES.LOUSHO_DUPLICATE_TOOL, `AgentBuilder.addTool: a tool named '${name}' was already added.`, {
        hint: 'Give each tool a unique name.',
      });
    }
    this.#config.tools[name] = typeof toolOrName === 'string' ? (descriptor ?? true) : toolOrName;
    return this;
  }

  /** Adds several `defineTool()` tools; throws `LOUSHO_DUPLICATE_TOOL` on a name already added. */
  addTools(tools: readonly DefinedTool[]): this {
    for (const tool of tools) this.addTool(tool);
    return this;
  }

  /** Model calls allowed per run (default 10); a run that needs more ends with `finishReason: 'max-steps'`. */
  setMaxSteps(maxSteps: number): this {
    this.#config.maxSteps = maxSteps;
    return this;
  }

  /** Sampling temperature passed to the provider. */
  setTemperature(temperature: number): this {
    this.#config.temperature = temperature;
    return this;
  }

  /** Cap on the tokens of each model reply, passed to the provider. */
  setMaxTokens(maxTokens: number): this {
    this.#config.maxTokens = maxTokens;
    return this;
  }

  /** Tool calls of one turn in flight at once: a positive integer, or `'unbounded'` (the default). */
  setToolConcurrency(toolConcurrency: ToolConcurrency): this {
    this.#config.toolConcurrency = toolConcurrency;
    return this;
  }

  /**
   * The config for `AgentExecutor.execute({ agent })`. Throws `LOUSHO_INVALID_CONFIG` without a name.
   * Without any tool added, the agent may use every tool of the registry it runs with.
   */
  build(): AgentConfig {
    const { name } = this.#config;
    if (!name) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, "AgentBuilder.build(): the agent has no name; call .setName('my-agent') first.", {
        hint: "Call .setName('my-agent') (or AgentBuilder.create('my-agent')) before build().",
      });
    }
    // No tool added: `tools` is left out, so the agent may use every tool of the `toolRegistry`
    // it runs with (as a plain config without `tools` does).
    const { tools, ...rest } = this.#config;
    return Object.keys(tools).length ? { ...rest, name, tools: { ...tools } } : { ...rest, name };
  }
}

/** @deprecated No runtime effect: agents need no type (removed next minor). */
export const AgentType = Object.freeze({ Default: 'default', Conversational: 'conversational', Task: 'task' } as const);
/** @deprecated agents need no type (removed next minor). */
export type AgentType = (typeof AgentType)[keyof typeof AgentType];
