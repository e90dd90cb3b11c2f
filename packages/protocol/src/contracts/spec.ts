// A declarative agent spec (spec/ parses and checks it; the Node loader reads it from files).

/** A declarative agent: what `loadSpec()` reads and `specToAgent()` turns into an agent. */
export interface AgentSpec {
  name: string;
  description?: string | undefined;
  instructions?: string | undefined;
  /** A model id; a `provider/model` string when `specToAgent()` is given no provider. */
  model?: string | undefined;
  /** Built-in tools by their spec names (`http`, `current-date`, `day-name`, `todo`) and names of tools passed to `specToAgent()`. */
  tools?: string[] | undefined;
  maxSteps?: number | undefined;
  toolConcurrency?: number | 'unbounded' | undefined;
  askQuestion?: boolean | undefined;
  /** A folder of skills (`loadSkills()` layout), relative to the spec file. */
  skills?: string | undefined;
  memory?: { name: string; scope: 'global' | 'session'; dir?: string | undefined; description?: string | undefined; recall?: false | { limit?: number | undefined; maxTokens?: number | undefined } | undefined }[] | undefined;
  mcpServers?: Record<string, Record<string, unknown>> | undefined;
  /** Nested specs, or paths of spec files relative to this one. */
  subagents?: (AgentSpec | string)[] | undefined;
  limits?: { maxTokens?: number | undefined; maxCostUsd?: number | undefined; maxToolCalls?: number | undefined; maxDurationMs?: number | undefined } | undefined;
  /** A JSON Schema the final reply must match (structured output). */
  output?: Record<string, unknown> | undefined;
}
