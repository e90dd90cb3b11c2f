// lousho-api-overview.md, "Skipped tools", unchanged below the mcpClient line.
import { connectTestClient } from './mcp-client.js';
const mcpClient = await connectTestClient();

import { loadMcpTools, type SkippedMcpTool } from '@lousho/build-ai-agent/mcp';

const skipped: SkippedMcpTool[] = [];
const tools = await loadMcpTools(mcpClient, 'my-server', {
  logger: console,
  onSkip: (tool) => skipped.push(tool), // { name, reason }
});

export { tools, skipped, mcpClient };
