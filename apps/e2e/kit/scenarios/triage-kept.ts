import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import { newContext } from '../chromium.js';
import type { DemoMode, DemoTarget } from '../demo-target.js';
import { approvalPanel, collectErrors, screenshot, waitForStatus, waitForTakeOver } from '../page-driver.js';

/** The flow's cards, as `node:state`. */
const cards = (page: import('playwright-core').Page) =>
  page.getByTestId('flow-node').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-node')}:${node.getAttribute('data-state')}`));

const WAITING = ['classify:done', 'route:done', 'refund:done', 'review:awaiting-approval'];

/**
 * A triage run waiting for review is where it was after a reload, a switch to the chat and back,
 * and a switch to the other mode and back, in either mode (the README promises it); approving then
 * sends the reply once.
 */
export function describeTriageKept(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('triage flow kept (%s)', (mode: DemoMode) => {
    it('a reply waiting for review survives a reload, Chat → Triage → Chat, and a mode switch and back', async () => {
      const context = await newContext(browser());
      const page = await context.newPage();
      const pageErrors = collectErrors(page);
      const url = new URL(target.url(mode));
      url.searchParams.set('view', 'triage');
      await page.goto(url.href);
      await waitForTakeOver(target, page);
      await page.locator('#triage-input').fill('I was charged twice for order #5120, please refund me.');
      await page.getByTestId('triage-run').click();
      await page.locator('[data-node="review"][data-state="awaiting-approval"]').waitFor({ timeout: 30_000 });
      expect(await cards(page)).toEqual(WAITING);
      const draft = await approvalPanel(page).getByTestId('approval-args').textContent();
      expect(draft).toContain('#5120');

      const stillWaiting = async (step: string): Promise<void> => {
        await approvalPanel(page).waitFor({ timeout: 15_000 });
        await waitForStatus(page, 'awaiting-approval');
        expect(await cards(page), step).toEqual(WAITING);
        expect(await approvalPanel(page).getByTestId('approval-args').textContent(), step).toBe(draft);
        expect(await page.getByTestId('triage-message').textContent(), step).toContain('#5120');
      };

      await page.reload();
      await waitForTakeOver(target, page);
      await stillWaiting('after a reload');
      await screenshot(target, page, `triage-kept-reload-${mode}`);

      await page.getByRole('radio', { name: 'Chat' }).click();
      await page.locator('.chat-scroll').first().waitFor();
      await expectNoTriage(page);
      await page.getByRole('radio', { name: 'Triage flow' }).click();
      await stillWaiting('after Chat and back');

      const other = mode === 'page' ? 'HTTP server' : 'In this page';
      const back = mode === 'page' ? 'In this page' : 'HTTP server';
      await page.getByRole('radio', { name: other }).click();
      await page.getByTestId('triage-run').waitFor();
      await page.getByRole('radio', { name: back }).click();
      await waitForTakeOver(target, page);
      await stillWaiting('after a mode switch and back');

      await approvalPanel(page).getByRole('button', { name: 'Approve' }).click();
      await page.locator('[data-node="send"][data-state="done"]').waitFor();
      await waitForStatus(page, 'idle');
      expect(await page.getByTestId('triage-outcome').textContent()).toMatch(/^Reply reply_\d+ sent\.$/);
      // And once sent, a reload shows the finished run, nothing waiting.
      await page.reload();
      await waitForTakeOver(target, page);
      await page.locator('[data-node="send"][data-state="done"]').waitFor();
      expect(await approvalPanel(page).count()).toBe(0);
      expect(pageErrors).toEqual([]);
      await context.close();
    }, 120_000);
  });
}

async function expectNoTriage(page: import('playwright-core').Page): Promise<void> {
  await page.getByTestId('flow-row').waitFor({ state: 'detached' });
}
