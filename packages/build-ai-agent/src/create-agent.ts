import { createAgent as createCoreAgent, type McpConnector } from '@lousho/core';

/** @lousho/mcp is loaded on the first run that connects MCP servers (never by agents without them). */
const connectMcpServers: McpConnector = async (options) => (await import('@lousho/mcp')).createMcpToolSource(options);

/**
 * Creates an agent (see `@lousho/core`'s `createAgent`), with MCP support: `mcpServers` are
 * connected through `@lousho/mcp` on the first run, reused by later runs, and closed by `agent.close()`.
 */
export const createAgent: typeof createCoreAgent = (config) =>
  createCoreAgent(config.mcpServers !== undefined && config.mcpConnector === undefined ? { ...config, mcpConnector: connectMcpServers } : config) as never;
