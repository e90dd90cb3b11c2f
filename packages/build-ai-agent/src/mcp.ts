// `@lousho/build-ai-agent/mcp`: MCP servers' tools (connectMcp, loadMcpTools, the schema converter).
export * from '@lousho/mcp';
