export * from '@lousho/core';
export * from '@lousho/integrations';
// Evals: defineEval, the scorers and checks, runEval (the `lousho eval` command is the package's bin).
export * from '@lousho/evals';
// The root's createAgent connects `mcpServers` through @lousho/mcp (core's own refuses them).
export { createAgent } from './create-agent.js';
export { connectMcp, loadMcpTools, type LoadMcpToolsOptions, type McpConnection, type SkippedMcpTool } from '@lousho/mcp';
