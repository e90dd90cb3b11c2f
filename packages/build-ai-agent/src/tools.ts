// `@lousho/build-ai-agent/tools`: defining and registering tools, the built-in tools, and MCP tools.
export * from '@lousho/core/tools';
export * from '@lousho/tools';
export { connectMcp, loadMcpTools, type LoadMcpToolsOptions, type McpConnection, type SkippedMcpTool } from '@lousho/mcp';
