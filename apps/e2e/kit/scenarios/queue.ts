import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { openDemo, screenshot, sendMessage, toolCard, waitForStatus } from '../page-driver.js';

const queuedTexts = (page: import('playwright-core').Page): Promise<string[]> => page.getByTestId('queued-message').locator('.queued-text').allTextContents();

/** Messages sent while a reply runs: they wait above the composer, can be removed, and run next. */
export function describeQueue(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('messages sent while a reply runs (%s)', (mode) => {
    it('wait as pending with a Remove button; the one left runs as the next turn once the reply ends', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      await sendMessage(page, 'Research the history of tea');
      await toolCard(page, 'research_topic').getByTestId('tool-progress').waitFor();

      // Enter while the reply runs: the message waits (the composer is usable, Stop still there).
      await sendMessage(page, 'What is the weather in Paris?');
      await sendMessage(page, 'Never mind this one');
      await page.getByTestId('queued-message').nth(1).waitFor();
      expect(await queuedTexts(page)).toEqual(['What is the weather in Paris?', 'Never mind this one']);
      expect(await page.getByTestId('queued-message').first().getAttribute('data-mode')).toBe('queue');
      await screenshot(target, page, `queued-${mode}`);

      await page.getByRole('button', { name: 'Remove “Never mind this one”' }).click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="queued-message"]').length === 1);
      expect(await queuedTexts(page)).toEqual(['What is the weather in Paris?']);

      // The research ends; the waiting message is the next turn, followed without a click.
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="message"][data-role="user"]')].some((m) => m.textContent?.includes('What is the weather in Paris?')), undefined, { timeout: 60_000 });
      await toolCard(page, 'get_weather', 'done').waitFor({ timeout: 30_000 });
      await waitForStatus(page, 'idle');
      expect(await page.getByTestId('queued-message').count()).toBe(0);
      const users = await page.locator('[data-testid="message"][data-role="user"]').allTextContents();
      expect(users.map((text) => text.trim())).toEqual(['Research the history of tea', 'What is the weather in Paris?']);
      await screenshot(target, page, `queued-sent-${mode}`);
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
