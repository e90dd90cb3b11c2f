import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../accessibility.js';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { openDemo, screenshot, sendAndWaitForReply, toolCard, waitForStatus, waitForTakeOver } from '../page-driver.js';

/** What the demos' divider says where the agent shortened earlier tool results. */
export const COMPACTION_NOTE = "Earlier tool results were shortened to fit the model's context.";

/** Turns after which the divider must have appeared (the demo model's window fills in about six). */
const MAX_TURNS = 12;

/**
 * A long conversation on the offline demo model (a small context window): the agent prunes older
 * tool results, the reply that came after shows a quiet divider, not a message, and the chat goes on.
 * Over HTTP it is still there after a reload (rebuilt from the server's session).
 */
export function describeCompaction(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('context compaction (%s)', (mode) => {
    it('a long chat shows the compaction divider once the window fills, and the chat goes on', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      const dividers = page.getByTestId('compaction');
      let turns = 0;
      while ((await dividers.count()) === 0 && turns < MAX_TURNS) {
        turns++;
        await sendAndWaitForReply(page, `Weather in Berlin, Rome and Oslo? (${turns})`);
      }
      // Not on the first turns: the window holds them whole.
      expect(turns).toBeGreaterThan(2);
      expect(await dividers.count()).toBe(1);
      const divider = dividers.first();
      expect(await divider.textContent()).toBe(COMPACTION_NOTE);
      expect(await divider.getAttribute('role')).toBe('separator');
      // A divider inside the newest reply, among its parts: not a message of its own.
      const reply = page.locator('[data-testid="message"]').last();
      expect(await reply.getAttribute('data-role')).toBe('assistant');
      expect(await reply.getByTestId('compaction').count()).toBe(1);
      await toolCard(page, 'get_weather', 'done').first().waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await divider.scrollIntoViewIfNeeded();
      await screenshot(target, page, `compaction-${mode}`);

      if (mode === 'http') {
        const messages = await page.getByTestId('message').count();
        await page.reload();
        await waitForTakeOver(target, page);
        await page.getByTestId('message').nth(messages - 1).waitFor();
        await waitForStatus(page, 'idle');
        expect(await page.getByTestId('message').count()).toBe(messages);
        expect(await page.getByTestId('compaction').count()).toBe(1);
        expect(await page.getByTestId('compaction').textContent()).toBe(COMPACTION_NOTE);
      }
      // The chat goes on after it.
      await sendAndWaitForReply(page, 'Weather in Paris?');
      expect(await page.locator('[data-testid="message"]').last().innerText()).toContain('Paris');
      expect(pageErrors).toEqual([]);
      await close();
    }, 240_000);
  });
}
