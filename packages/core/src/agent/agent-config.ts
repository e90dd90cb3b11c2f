import type { ToolDescriptor } from '@lousho/protocol';
import type { ToolConcurrency } from './types.js';

/**
 * A declarative agent, as `AgentBuilder` builds it and `AgentExecutor.execute()` runs it.
 * `tools` names the tools the agent may use: a list of names looked up in the `toolRegistry`
 * passed to `execute()`, or a record whose values are descriptors (or `true` to take the registry's).
 */
export interface AgentConfig {
  name: string;
  description?: string;
  instructions?: string;
  model?: string;
  tools?: readonly string[] | Readonly<Record<string, ToolDescriptor | true>>;
  maxSteps?: number;
  temperature?: number;
  maxTokens?: number;
  toolConcurrency?: ToolConcurrency;
}
