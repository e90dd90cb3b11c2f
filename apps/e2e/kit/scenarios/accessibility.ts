import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeViolations, seriousA11yViolations } from '../accessibility.js';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { approvalPanel, openDemo, screenshot, sendAndWaitForReply, sendMessage, toolCard, waitForStatus } from '../page-driver.js';

const SCHEMES = ['light', 'dark'] as const;

/** Every chip of the suggestion rows is whole inside its row: none is cut off at the edge. */
async function chipsCutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    for (const row of document.querySelectorAll<HTMLElement>('.suggestions')) {
      const box = row.getBoundingClientRect();
      if (row.scrollWidth > row.clientWidth + 1) cut.push(`the row scrolls (${row.scrollWidth} > ${row.clientWidth})`);
      for (const chip of row.querySelectorAll<HTMLElement>('.chip')) {
        const r = chip.getBoundingClientRect();
        if (r.left < box.left - 1 || r.right > box.right + 1) cut.push(`"${chip.textContent?.trim()}" (${Math.round(r.left)}..${Math.round(r.right)} in ${Math.round(box.left)}..${Math.round(box.right)})`);
      }
    }
    return cut;
  });
}

/**
 * axe-core on the demo's main states (welcome, a chat with a tool card, an approval, an error), in
 * light and dark: no serious or critical WCAG 2.1 AA violation, contrast included. Plus the
 * suggestion chips: all of them visible, on a wide and on a narrow window.
 */
export function describeAccessibility(target: DemoTarget, browser: () => Browser): void {
  const mode = target.modes.includes('http') ? 'http' : target.modes[0]!;

  describe.each(SCHEMES)('accessibility (%s)', (scheme) => {
    it('axe-core finds no serious violation on the welcome page, a chat, an approval and an error', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode, { colorScheme: scheme });
      const check = async (state: string): Promise<void> => {
        await screenshot(target, page, `a11y-${scheme}-${state}`);
        const violations = await seriousA11yViolations(page);
        expect(violations, `${state} (${scheme}):\n${describeViolations(violations)}`).toEqual([]);
      };
      await page.getByTestId('model-notice').filter({ hasText: 'Offline demo model' }).waitFor();
      await check('welcome');

      await sendAndWaitForReply(page, "What's the weather in Paris?");
      await toolCard(page, 'get_weather', 'done').waitFor();
      await check('chat');

      await sendMessage(page, 'email bob@example.com about the launch');
      await approvalPanel(page).waitFor();
      await waitForStatus(page, 'awaiting-approval');
      await check('approval');

      await approvalPanel(page).getByLabel(/Note for the agent/).fill('Not yet, please');
      await approvalPanel(page).getByRole('button', { name: 'Reject' }).click();
      await waitForStatus(page, 'idle');
      await sendMessage(page, 'simulate error');
      await page.getByTestId('error').waitFor();
      await check('error');
      expect(pageErrors).toEqual([]);
      await close();
    });
  });

  describe('suggestion chips', () => {
    it('are all visible, none cut off at the edge, on a wide and on a narrow window', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      expect(await chipsCutOff(page)).toEqual([]);
      await sendAndWaitForReply(page, 'echo hi');
      await page.locator('.suggestions.is-compact').waitFor();
      expect(await chipsCutOff(page)).toEqual([]);
      await page.setViewportSize({ width: 560, height: 860 });
      expect(await chipsCutOff(page)).toEqual([]);
      await screenshot(target, page, 'suggestions-narrow');
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
