// A small MCP server for the MCP example, connected in process (no subprocess, no network): two
// note tools, and one tool whose input schema is not an object, which loadMcpTools() must skip.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const TOOLS = [
  {
    name: 'add_note',
    description: 'Save a note',
    inputSchema: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'], additionalProperties: false },
  },
  { name: 'list_notes', description: 'List the saved notes', inputSchema: { type: 'object', properties: {} } },
  { name: 'broken', description: 'A tool whose arguments are a bare string', inputSchema: { type: 'string' } },
];

/** Starts the notes server and returns an SDK client connected to it. */
export async function connectNotesServer(): Promise<Client> {
  const notes: string[] = [];
  const server = new Server({ name: 'notes', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    if (params.name === 'add_note') {
      notes.push(String(params.arguments?.text));
      return { content: [{ type: 'text', text: `Saved note ${notes.length}.` }] };
    }
    if (params.name === 'list_notes') return { content: [{ type: 'text', text: notes.join('\n') }], structuredContent: { notes } };
    return { isError: true, content: [{ type: 'text', text: `Unknown tool ${params.name}` }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'lousho-example', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}
