import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDemoAgent, createDemoModel } from '@lousho/demo-agent';
import { notesServerConfig } from '../src/notes-server.js';

/*
 * The demo agent with the demo's real MCP notes server (a child process over stdio), as the demo
 * server runs it: the offline demo model takes, lists and searches notes through MCP tools.
 */
describe('the demo agent and the MCP notes server', { timeout: 60_000 }, () => {
  it('takes a note, lists and searches notes through the MCP tools, and keeps them in NOTES_FILE', async () => {
    const notesFile = join(mkdtempSync(join(tmpdir(), 'demo-notes-')), 'notes.json');
    const stderr: string[] = [];
    const agent = createDemoAgent({
      provider: createDemoModel({ charDelayMs: 0 }),
      toolDelayScale: 0,
      mcpServers: { notes: notesServerConfig(notesFile) },
      mcpOptions: { logger: { warn: (line) => stderr.push(line) } },
    });
    try {
      const added = await agent.send('Take a note: call the bike shop on Monday');
      expect(added.toolCalls).toEqual([expect.objectContaining({ toolName: 'notes__add_note', args: { text: 'call the bike shop on Monday' }, isError: false })]);
      expect(added.text).toContain('Noted (#1): "call the bike shop on Monday"');
      await agent.send('Note down: buy milk');

      const listed = await agent.send('List my notes');
      expect(listed.toolCalls[0]).toMatchObject({ toolName: 'notes__list_notes', result: { total: 2 } });
      expect(listed.text).toBe('Your notes, newest first:\n- #2: buy milk\n- #1: call the bike shop on Monday');

      const found = await agent.send('Search my notes for bike');
      expect(found.toolCalls[0]).toMatchObject({ toolName: 'notes__search_notes', args: { query: 'bike' } });
      expect(found.text).toBe('Notes matching "bike":\n- #1: call the bike shop on Monday');

      expect(JSON.parse(readFileSync(notesFile, 'utf8'))).toHaveLength(2);
      expect(stderr.some((line) => line.startsWith('[mcp:notes] notes server ready'))).toBe(true);
    } finally {
      await agent.close();
    }
  });
});
