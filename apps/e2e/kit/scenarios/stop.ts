import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { openDemo, screenshot, sendMessage, toolCard, waitForStatus } from '../page-driver.js';

const FINAL_TOOL_STATES = ['done', 'error', 'rejected', 'cancelled'];

/** Stop in the middle of a reply with two tool calls: nothing is left running. */
export function describeStop(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('stop mid-stream (%s)', (mode) => {
    it('stops the research while its progress shows; every tool card (research and weather) ends in a final state', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      await sendMessage(page, 'Research the history of the bicycle, and what is the weather in Paris?');

      const card = toolCard(page, 'research_topic');
      await card.getByTestId('tool-progress').waitFor();
      expect(await card.getAttribute('data-state')).toBe('running');
      expect(await card.getByRole('progressbar').getAttribute('aria-valuenow')).toMatch(/^\d+$/);
      await screenshot(target, page, `research-progress-${mode}`);

      await page.getByRole('button', { name: 'Stop' }).click();
      await waitForStatus(page, 'aborted');
      expect(await page.getByTestId('status').textContent()).toContain('Stopped');
      await toolCard(page, 'research_topic', 'cancelled').waitFor();

      const states = await page.getByTestId('tool-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-state')));
      expect(states.length).toBe(2); // research and weather
      for (const state of states) expect(FINAL_TOOL_STATES).toContain(state);
      expect(await page.getByTestId('run-note').textContent()).toContain('You stopped this reply.');
      // The composer is usable again.
      expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
      await screenshot(target, page, `stopped-${mode}`);
      expect(pageErrors).toEqual([]);
      await close();
    });
  });

  describe.each(target.modes)('stop while the reply streams (%s)', (mode) => {
    it('counts the stopped model call in the usage line, estimated (~), with the text that streamed', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      await sendMessage(page, 'hello, what can you do?');
      // Some of the reply is on screen, the rest still on its way.
      await page.locator('[data-testid="message"][data-role="assistant"] [data-testid="text"]').first().waitFor();
      await waitForStatus(page, 'streaming');
      await page.getByRole('button', { name: 'Stop' }).click();
      await waitForStatus(page, 'aborted');
      const usage = (await page.getByTestId('usage').textContent()) ?? '';
      expect(usage).toMatch(/^~\d[\d,]* in \/ \d[\d,]* out tokens.*\(1 model call\)$/);
      expect(usage).not.toMatch(/ 0 out tokens/);
      await screenshot(target, page, `stopped-text-${mode}`);
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
