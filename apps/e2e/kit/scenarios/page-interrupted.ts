import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { openDemo, screenshot, sendMessage, toolCard, waitForStatus, waitForTakeOver } from '../page-driver.js';

/**
 * A reload in the middle of a reply of the agent that runs in the page: there is no server, so
 * nothing may say one stopped. The status says the reload cut the reply, the cut card says what
 * happened and what to do, and the next message goes on.
 */
export function describePageInterrupted(target: DemoTarget, browser: () => Browser): void {
  if (!target.modes.includes('page')) return;
  describe('a reload mid-reply (page)', () => {
    it('says the reload cut the reply (no server), the cut card explains what to do, and the chat goes on', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, 'page');
      await sendMessage(page, 'Research the history of the bicycle');
      await toolCard(page, 'research_topic').getByTestId('tool-progress').waitFor();

      await page.reload();
      await waitForTakeOver(target, page);
      await waitForStatus(page, 'idle');
      const status = page.getByTestId('status');
      await page.locator('[data-testid="status"]', { hasText: 'Interrupted' }).waitFor();
      const label = (await status.textContent()) ?? '';
      const hint = (await status.getAttribute('title')) ?? '';
      await screenshot(target, page, 'interrupted-page');
      expect(label).toContain('Interrupted');
      expect(hint).not.toMatch(/server/i);
      expect(hint).toMatch(/reload/i);
      // A note under the reply says what cut it and what to do.
      const note = (await page.getByTestId('run-note').textContent()) ?? '';
      expect(note).toMatch(/reloaded/);
      expect(note).toMatch(/Send a message/);
      expect(note).not.toMatch(/server/i);
      // The cut card says it did not finish, and how to go on.
      const card = toolCard(page, 'research_topic', 'cancelled');
      expect(await card.getByTestId('tool-cut').textContent()).toMatch(/^Not finished: .*Send a message to go on/);

      // And the next message goes on from there: the research runs again and the reply ends.
      await sendMessage(page, 'go on');
      await toolCard(page, 'research_topic', 'done').waitFor({ timeout: 60_000 });
      await waitForStatus(page, 'idle');
      expect(await page.getByTestId('run-note').count()).toBe(0);
      expect(await page.getByTestId('tool-cut').count()).toBe(0);
      expect(pageErrors).toEqual([]);
      await close();
    }, 120_000);
  });
}
