import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { lastAssistantText, openDemo, screenshot, sendMessage, toolCard, waitForStatus } from '../page-driver.js';

/**
 * A browser tool: `local_time` has no server-side `execute`. The run pauses on the call, the
 * page's handler (`browserTools` of the binding) reads the page's time zone and sends it, the
 * server checks it against the tool's schema, and the reply uses it.
 */
export function describeBrowserTools(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('browser tool (%s)', (mode) => {
    it("the page runs local_time: its card says it ran in the browser, and the reply names the page's time zone", async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      await sendMessage(page, 'What is my time zone?');
      const card = toolCard(page, 'local_time', 'done');
      await card.waitFor();
      await waitForStatus(page, 'idle');
      expect((await card.getByTestId('tool-decision').textContent())?.trim()).toBe('Ran in your browser');
      expect(await card.getByTestId('tool-result').textContent()).toContain(timeZone);
      await expect.poll(() => lastAssistantText(page), { timeout: 15_000 }).toContain(`Your browser says your time zone is ${timeZone}`);
      await screenshot(target, page, `browser-tool-${mode}`);
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
