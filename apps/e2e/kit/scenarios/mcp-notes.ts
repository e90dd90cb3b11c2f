import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { lastAssistantText, openDemo, screenshot, sendAndWaitForReply, toolCard } from '../page-driver.js';

/**
 * Tools from an MCP server (the demo server's notes server, a child process over stdio) show as tool
 * cards like any other. Only on the demo server (`target.mcpNotes`): a page has no MCP server.
 */
export function describeMcpNotes(target: DemoTarget, browser: () => Browser): void {
  if (!target.modes.includes('http') || !target.mcpNotes) return;
  describe('MCP notes tools (http)', () => {
    it('takes a note and finds it again, each call a tool card', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, 'http');
      const marker = `pelican ${Date.now()}`;
      await sendAndWaitForReply(page, `Take a note: feed the ${marker}`);
      const added = toolCard(page, 'notes__add_note', 'done');
      await added.waitFor();
      expect(await added.textContent()).toContain('Add a note');
      expect(await lastAssistantText(page)).toContain(`"feed the ${marker}"`);

      await sendAndWaitForReply(page, `Search my notes for ${marker}`);
      await toolCard(page, 'notes__search_notes', 'done').waitFor();
      expect(await lastAssistantText(page)).toContain(`feed the ${marker}`);
      await screenshot(target, page, 'mcp-notes-http');
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
