import { specToAgent as coreSpecToAgent, type McpConnector, type OutputValidator, type SpecBuiltinTools, type ToolDescriptor } from '@lousho/core';
import { createHttpTool, createTodoTools, currentDateTool, dayNameTool } from '@lousho/tools';

/** @lousho/mcp is loaded on first use: by a run that connects MCP servers, or the first check of a structured reply. */
const connectMcpServers: McpConnector = async (options) => (await import('@lousho/mcp')).createMcpToolSource(options);

/** Replies are checked against the spec's `output` JSON Schema with @lousho/mcp's JSON Schema support. */
const validateJsonSchema: OutputValidator = (schema) => {
  let validator: Promise<(value: unknown) => unknown> | undefined;
  return async (value) => {
    validator ??= import('@lousho/mcp').then(({ jsonSchemaToZod }) => {
      const zod = jsonSchemaToZod(schema);
      return (input: unknown) => zod['~standard'].validate(input);
    });
    return (await validator)(value) as never;
  };
};

/** A built-in tool by its spec name (from @lousho/tools): the tools it adds, by the names the agent uses. */
const builtinTools: SpecBuiltinTools = (name): Record<string, ToolDescriptor> => {
  switch (name) {
    case 'http':
      return { http: createHttpTool() };
    case 'current-date':
      return { current_date: currentDateTool };
    case 'day-name':
      return { day_name: dayNameTool };
    case 'todo': {
      const [write, read] = createTodoTools().tools;
      return { todo_write: write, todo_read: read };
    }
  }
};

/**
 * Turns an agent spec into an agent (see `@lousho/core`'s `specToAgent`), with the built-in tools a
 * spec names (from `@lousho/tools`), the spec's `mcpServers` connected through `@lousho/mcp` and its
 * `output` JSON Schema enforced.
 */
export const specToAgent: typeof coreSpecToAgent = (spec, options = {}) =>
  coreSpecToAgent(spec, { builtinTools, mcpConnector: connectMcpServers, outputValidator: validateJsonSchema, ...options });
