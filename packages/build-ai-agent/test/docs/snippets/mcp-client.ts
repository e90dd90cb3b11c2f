// The `mcpClient` the MCP snippets take as given: an SDK client connected to a real MCP server
// (the test server with 100 tools of hostile schemas, one of which cannot be converted).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const server = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../mcp/test/servers/hostile-server.mjs');

export async function connectTestClient(): Promise<Client> {
  const client = new Client({ name: 'docs-snippet', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [server], stderr: 'pipe' }));
  return client;
}
