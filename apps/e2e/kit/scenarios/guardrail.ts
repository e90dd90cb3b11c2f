import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../accessibility.js';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { lastAssistantText, openDemo, screenshot, sendAndWaitForReply, toolCard, waitForStatus } from '../page-driver.js';

/**
 * The coding tools on the demo's in-memory project, and the command guardrail: "delete everything"
 * ends the run with the guardrail's notice and a denied shell card; nothing ran; the chat goes on.
 */
export function describeGuardrail(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('coding tools and a guardrail stop (%s)', (mode) => {
    it('a destructive command is stopped by the guardrail, then edit_file and shell cards work', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      await page.getByRole('button', { name: 'Coding: delete everything (a guardrail blocks it)' }).click();
      const notice = page.getByTestId('guardrail');
      await notice.waitFor();
      await waitForStatus(page, 'idle');
      expect(await notice.getByTestId('guardrail-reason').textContent()).toBe("'rm -rf *' is denied: it matches the rule 'rm -rf /'.");
      expect(await notice.getByTestId('guardrail-source').textContent()).toBe('The command guardrail blocked a tool call.');
      // The shell call is shown, refused: it never ran.
      await toolCard(page, 'shell', 'error').waitFor();
      expect(await toolCard(page, 'shell', 'error').textContent()).toContain('cd / && rm -rf *');
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(target, page, `guardrail-${mode}`);

      // The next turn starts clean: the notice goes, and the coding tools do their work.
      await sendAndWaitForReply(page, 'Fix the typo');
      expect(await page.getByTestId('guardrail').count()).toBe(0);
      await toolCard(page, 'edit_file', 'done').waitFor();
      await sendAndWaitForReply(page, 'Run the tests');
      await toolCard(page, 'shell', 'done').waitFor();
      expect(await lastAssistantText(page)).toContain('1 test passed');
      await screenshot(target, page, `coding-${mode}`);
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
