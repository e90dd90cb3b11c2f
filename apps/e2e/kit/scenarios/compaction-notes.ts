import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { openDemo, screenshot, sendAndWaitForReply } from '../page-driver.js';

/** Turns after which the demo model's small window must have needed a summary (pruning first). */
const MAX_TURNS = 12;

const SHORTENED = /^(?:An older tool result was|\d+ older tool results were) shortened to fit the model's context\.$/;
const SUMMARIZED = /^Older turns were summarized(?:, and (?:an older tool result|\d+ older tool results) shortened,)? to fit the model's context\.$/;

/**
 * The compaction divider says what happened: older tool results shortened (how many), or older
 * turns summarized, one divider per compaction, not the same line after every turn. Run where the
 * demo model is (the page, else the server).
 */
export function describeCompactionNotes(target: DemoTarget, browser: () => Browser): void {
  const mode = target.modes.includes('page') ? 'page' : 'http';
  describe(`compaction dividers say what happened (${mode})`, () => {
    it('a long chat shows "shortened" where tool results were pruned and "summarized" where older turns were', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      const notes = () => page.getByTestId('compaction').allTextContents();
      let turns = 0;
      while (!(await notes()).some((note) => SUMMARIZED.test(note)) && turns < MAX_TURNS) {
        turns++;
        await sendAndWaitForReply(page, `Weather in Berlin, Rome and Oslo? (${turns})`);
      }
      const shown = await notes();
      // Pruning comes first and says how much; a summary says so; every divider is one of the two.
      expect(shown[0]).toMatch(SHORTENED);
      expect(Number(/^\d+/.exec(shown[0]!)?.[0] ?? '1')).toBeGreaterThan(0);
      expect(shown.some((note) => SUMMARIZED.test(note))).toBe(true);
      for (const note of shown) expect(note).toMatch(new RegExp(`${SHORTENED.source}|${SUMMARIZED.source}`));
      // One divider per compaction: never two in a row of a reply saying the same thing.
      const perReply = await page
        .locator('[data-testid="message"][data-role="assistant"]')
        .evaluateAll((replies) => replies.map((reply) => [...reply.querySelectorAll('[data-testid="compaction"]')].map((divider) => divider.textContent)));
      for (const dividers of perReply) expect(new Set(dividers).size).toBe(dividers.length);
      await page.getByTestId('compaction').last().scrollIntoViewIfNeeded();
      await screenshot(target, page, `compaction-summarized-${mode}`);
      expect(pageErrors).toEqual([]);
      await close();
    }, 300_000);
  });
}
