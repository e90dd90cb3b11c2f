import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../accessibility.js';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { openDemo, screenshot, sendAndWaitForReply, toolCard, waitForStatus, waitForTakeOver } from '../page-driver.js';

/** What the demos' divider says: older tool results shortened, or older turns summarized (`compactionNote()`). */
export const COMPACTION_NOTE = /^(?:An older tool result was|\d+ older tool results were) shortened to fit the model's context\.$|^Older turns were summarized(?:, and (?:an older tool result|\d+ older tool results) shortened,)? to fit the model's context\.$/;

/** Turns after which the divider must have appeared (the demo model's window fills in about six). */
const MAX_TURNS = 12;

/**
 * A long conversation on the offline demo model (a small context window): the agent prunes older
 * tool results (and summarizes older turns once pruning is not enough), the reply where that
 * happened shows a quiet divider, not a message, and the chat goes on. Over HTTP it is still there
 * after a reload (rebuilt from the server's session).
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
      // One divider per compaction: usually one, two when the reply's second model call needed a
      // summary after its first one pruned (the HTTP agent's MCP notes tools take more of the window).
      const count = await dividers.count();
      expect(count).toBeGreaterThanOrEqual(1);
      expect(count).toBeLessThanOrEqual(2);
      for (const divider of await dividers.all()) {
        expect(await divider.textContent()).toMatch(COMPACTION_NOTE);
        expect(await divider.getAttribute('role')).toBe('separator');
      }
      const divider = dividers.first();
      // Inside the newest reply, among its parts: not a message of its own.
      const reply = page.locator('[data-testid="message"]').last();
      expect(await reply.getAttribute('data-role')).toBe('assistant');
      expect(await reply.getByTestId('compaction').count()).toBe(count);
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
        expect(await page.getByTestId('compaction').count()).toBe(count);
        expect(await page.getByTestId('compaction').first().textContent()).toMatch(COMPACTION_NOTE);
      }
      // The chat goes on after it.
      await sendAndWaitForReply(page, 'Weather in Paris?');
      expect(await page.locator('[data-testid="message"]').last().innerText()).toContain('Paris');
      expect(pageErrors).toEqual([]);
      await close();
    }, 240_000);
  });
}
