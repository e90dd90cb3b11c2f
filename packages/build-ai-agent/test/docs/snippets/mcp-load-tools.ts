// lousho-api-overview.md, "Tools" (loadMcpTools), unchanged below the mcpClient line.
import { connectTestClient } from './mcp-client.js';
const mcpClient = await connectTestClient();

import { loadMcpTools } from '@lousho/build-ai-agent/mcp';

const tools = await loadMcpTools(mcpClient, 'my-server');

export { tools, mcpClient };
