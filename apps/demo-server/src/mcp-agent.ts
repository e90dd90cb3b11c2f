// The demo agent as an agent module for `lousho mcp serve` (stdio by default):
//   lousho mcp serve apps/demo-server/src/mcp-agent.ts
// An MCP desktop client starts it as its command (docs/mcp.md, "Serve an agent over MCP").
// DEMO_INSTANT=1 drops the demo's pauses (the model's typing, the tools' delays), for tests.
import { createDemoAgent, createDemoModel } from '@lousho/demo-agent';
import type { ServeMcpOptions } from '@lousho/build-ai-agent/mcp';

export default (env: Record<string, string | undefined>) => {
  const instant = env['DEMO_INSTANT'] === '1';
  return createDemoAgent({ provider: createDemoModel(instant ? { charDelayMs: 0 } : {}), toolDelayScale: instant ? 0 : 1 });
};

export const mcpOptions: ServeMcpOptions = { toolName: 'ask_lousho_demo' };
