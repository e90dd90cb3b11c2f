// lousho-api-overview.md › "Tools": loadMcpTools() turns a connected MCP server's tools into tools an
// agent can call; a tool that cannot be converted is skipped and reported, the rest load.
// Run: npx tsx mcp-tools.ts (offline: an MCP server in this process, a scripted model).
import { createAgent } from '@lousho/build-ai-agent';
import { loadMcpTools, type SkippedMcpTool } from '@lousho/build-ai-agent/mcp';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { connectNotesServer } from './support/notes-server.js';

// What the snippet takes as given: an MCP SDK client connected to a server.
const mcpClient = await connectNotesServer();

const skipped: SkippedMcpTool[] = [];
const tools = await loadMcpTools(mcpClient, 'my-server', {
  logger: console,
  onSkip: (tool) => skipped.push(tool), // { name, reason }
});
console.log(`loaded: ${Object.keys(tools).sort().join(', ')}`);
console.log(`skipped: ${skipped.map((tool) => tool.name).join(', ')}`);

// The tools drop into createAgent. Arguments are checked against the server's schema before it is called.
const agent = createAgent({
  instructions: 'You keep notes.',
  provider: mockModel([
    { toolCalls: [{ name: 'my-server__add_note', args: { text: '' } }, { name: 'my-server__add_note', args: { text: 'Buy milk' } }] },
    { toolCalls: [{ name: 'my-server__list_notes', args: {} }] },
    'You have one note: Buy milk.',
  ]),
  tools,
});
const result = await agent.send('Note: buy milk');
for (const call of result.toolCalls) console.log(`${call.toolName}: ${call.isError ? `error (${(call.error as { kind: string }).kind})` : JSON.stringify(call.result)}`);
console.log(`reply: ${result.text}`);
await mcpClient.close();
