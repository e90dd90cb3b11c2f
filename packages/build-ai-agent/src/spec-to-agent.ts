import { specToAgent as coreSpecToAgent, type McpConnector, type OutputValidator } from '@lousho/core';

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

/**
 * Turns an agent spec into an agent (see `@lousho/core`'s `specToAgent`), with the spec's
 * `mcpServers` connected through `@lousho/mcp` and its `output` JSON Schema enforced.
 */
export const specToAgent: typeof coreSpecToAgent = (spec, options = {}) =>
  coreSpecToAgent(spec, { mcpConnector: connectMcpServers, outputValidator: validateJsonSchema, ...options });
