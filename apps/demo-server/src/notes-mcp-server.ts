// The demo's MCP server: a small notes store (add, list, search) that the demo server starts over
// stdio, so the demo agent shows tools that come from MCP. Notes live in NOTES_FILE (JSON) when it
// is set, else in memory. Run on its own: `node --import tsx src/notes-mcp-server.ts`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

interface Note {
  id: number;
  text: string;
  createdAt: string;
}

const file = process.env['NOTES_FILE']?.trim() || undefined;
const notes: Note[] = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Note[]) : [];
const save = () => {
  if (file) writeFileSync(file, JSON.stringify(notes, null, 2));
};
const noteSchema = { id: z.number(), text: z.string(), createdAt: z.string() };

const server = new McpServer({ name: 'lousho-demo-notes', version: '1.0.0' });

server.registerTool(
  'add_note',
  {
    title: 'Add a note',
    description: 'Saves a short note for the user.',
    inputSchema: { text: z.string().min(1).max(500).describe('What to write down') },
    outputSchema: { note: z.object(noteSchema), total: z.number() },
  },
  async ({ text }) => {
    const note: Note = { id: (notes.at(-1)?.id ?? 0) + 1, text: text.trim(), createdAt: new Date().toISOString() };
    notes.push(note);
    save();
    return { content: [{ type: 'text', text: `Saved note #${note.id}.` }], structuredContent: { note, total: notes.length } };
  },
);

server.registerTool(
  'list_notes',
  { title: 'List notes', description: "Lists the user's notes, newest first.", inputSchema: { limit: z.number().int().min(1).max(50).default(10) }, outputSchema: { notes: z.array(z.object(noteSchema)), total: z.number() } },
  async ({ limit }) => {
    const newest = notes.slice(-limit).reverse();
    return { content: [{ type: 'text', text: `${notes.length} notes.` }], structuredContent: { notes: newest, total: notes.length } };
  },
);

server.registerTool(
  'search_notes',
  { title: 'Search notes', description: 'Finds notes that contain every word of the query (case does not matter).', inputSchema: { query: z.string().min(1).max(200) }, outputSchema: { query: z.string(), notes: z.array(z.object(noteSchema)) } },
  async ({ query }) => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const found = notes.filter((note) => words.every((word) => note.text.toLowerCase().includes(word)));
    return { content: [{ type: 'text', text: `${found.length} notes match.` }], structuredContent: { query, notes: found } };
  },
);

// A stdio server ends when its client closes stdin (the demo server stopping).
process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
process.stderr.write(`notes server ready (${file ? `notes in ${file}` : 'notes in memory'})\n`);
