// @lousho/mcp: MCP servers' tools for Lousho agents, on the official MCP SDK. Browser-safe root:
// the stdio transport (child processes) is loaded only when a stdio server is connected.
export { connectMcp, createMcpToolSource, type McpConnection } from './connect-mcp.js';
export { loadMcpTools, type LoadMcpToolsOptions } from './load-tools.js';
export { jsonSchemaToZod, type JsonSchemaToZodOptions } from './json-schema/to-zod.js';
export { toToolResult, type McpContentPart, type McpToolResult } from './call-result.js';
export { McpCallError, McpConnectError } from './errors.js';
export type {
  McpConnectOptions,
  McpHttpServerConfig,
  McpLogger,
  McpServerConfig,
  McpServers,
  McpStdioServerConfig,
  SkippedMcpTool,
} from '@lousho/core';
// Serving: an agent as an MCP server (stdio, Streamable HTTP).
export { serveMcp, type McpAgentServer } from './server/serve-mcp.js';
export type { ServeMcpOptions } from './server/options.js';
