import { ERROR_CODES, SDKError } from '../errors.js';
import type { DefinedTool, ToolDescriptor } from '../tools/types.js';
import type { AgentConfig } from './agent-config.js';
import type { ToolConcurrency } from './types.js';

/** Fluent builder for an `AgentConfig`: `AgentBuilder.create().setName('x')...build()`. */
export class AgentBuilder {
  #config: Partial<AgentConfig> & { tools: Record<string, ToolDescriptor | true> } = { tools: {} };

  static create(name?: string): AgentBuilder {
    const builder = new AgentBuilder();
    if (name !== undefined) builder.setName(name);
    return builder;
  }

  setName(name: string): this {
    this.#config.name = name;
    return this;
  }

  setDescription(description: string): this {
    this.#config.description = description;
    return this;
  }

  setInstructions(instructions: string): this {
    this.#config.instructions = instructions;
    return this;
  }

  /** Alias of `setInstructions`. */
  setSystemPrompt(prompt: string): this {
    return this.setInstructions(prompt);
  }

  setModel(model: string): this {
    this.#config.model = model;
    return this;
  }

  /** Adds a `defineTool()` tool, or a descriptor under `name`. */
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

  addTools(tools: readonly DefinedTool[]): this {
    for (const tool of tools) this.addTool(tool);
    return this;
  }

  setMaxSteps(maxSteps: number): this {
    this.#config.maxSteps = maxSteps;
    return this;
  }

  setTemperature(temperature: number): this {
    this.#config.temperature = temperature;
    return this;
  }

  setMaxTokens(maxTokens: number): this {
    this.#config.maxTokens = maxTokens;
    return this;
  }

  setToolConcurrency(toolConcurrency: ToolConcurrency): this {
    this.#config.toolConcurrency = toolConcurrency;
    return this;
  }

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
