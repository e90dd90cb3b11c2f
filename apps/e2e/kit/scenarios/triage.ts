import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import { newContext } from '../chromium.js';
import type { DemoMode, DemoTarget } from '../demo-target.js';
import { approvalPanel, collectErrors, screenshot, waitForStatus, waitForTakeOver } from '../page-driver.js';

/** Opens the demo's triage flow view (`?view=triage`) in `mode` for a new visitor. */
async function openTriage(browser: Browser, target: DemoTarget, mode: DemoMode) {
  const context = await newContext(browser);
  const page = await context.newPage();
  const pageErrors = collectErrors(page);
  const url = new URL(target.url(mode));
  url.searchParams.set('view', 'triage');
  await page.goto(url.href);
  await waitForTakeOver(target, page);
  await page.locator('#triage-input').waitFor();
  return { page, pageErrors, close: () => context.close() };
}

/** The cards of the flow run, as `node:state`. */
const cards = (page: import('playwright-core').Page) =>
  page.getByTestId('flow-node').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-node')}:${node.getAttribute('data-state')}`));

/** The triage flow: a row of node cards, an approval node decided in the approval panel. */
export function describeTriage(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('triage flow (%s)', (mode) => {
    it('classifies, routes and drafts as node cards; the reply waits for review and is sent once approved', async () => {
      const { page, pageErrors, close } = await openTriage(browser(), target, mode);
      await page.locator('#triage-input').fill('I was charged twice for order #4417, please refund me.');
      await page.getByTestId('triage-run').click();

      await page.locator('[data-testid="flow-node"][data-node="review"][data-state="awaiting-approval"]').waitFor({ timeout: 30_000 });
      await waitForStatus(page, 'awaiting-approval');
      expect(await cards(page)).toEqual(['classify:done', 'route:done', 'refund:done', 'review:awaiting-approval']);
      expect(await page.locator('[data-node="classify"] [data-testid="flow-node-detail"]').textContent()).toBe('refund');
      expect(await page.locator('[data-node="route"] [data-testid="flow-node-detail"]').textContent()).toBe('→ refund');
      const draft = await page.locator('[data-node="refund"] [data-testid="flow-node-detail"]').textContent();
      expect(draft).toContain('refund you');
      const panel = approvalPanel(page);
      expect(await panel.getByTestId('approval-args').textContent()).toContain('refund you');
      await screenshot(target, page, `triage-review-${mode}`);

      await panel.getByRole('button', { name: 'Approve' }).click();
      await page.locator('[data-testid="flow-node"][data-node="send"][data-state="done"]').waitFor();
      await waitForStatus(page, 'idle');
      expect(await cards(page)).toEqual(['classify:done', 'route:done', 'refund:done', 'review:done', 'send:done']);
      expect(await page.locator('[data-node="review"] [data-testid="flow-node-detail"]').textContent()).toBe('Approved');
      expect(await page.getByTestId('triage-outcome').textContent()).toMatch(/^Reply reply_\d+ sent\.$/);
      await screenshot(target, page, `triage-sent-${mode}`);
      expect(pageErrors).toEqual([]);
      await close();
    });
  });

  if (!target.modes.includes('http')) return;
  describe('triage flow: a rejected reply (http)', () => {
    it('a bug report takes the bug branch; rejecting with a note sends nothing and says so', async () => {
      const { page, pageErrors, close } = await openTriage(browser(), target, 'http');
      await page.getByRole('button', { name: 'Bug report' }).click();
      await approvalPanel(page).waitFor({ timeout: 30_000 });
      expect(await cards(page)).toEqual(['classify:done', 'route:done', 'bug:done', 'review:awaiting-approval']);
      await approvalPanel(page).getByLabel(/Note for the agent/).fill('Ask for the app version first');
      await approvalPanel(page).getByRole('button', { name: 'Reject' }).click();
      await waitForStatus(page, 'idle');
      expect(await cards(page)).toEqual(['classify:done', 'route:done', 'bug:done', 'review:done']);
      expect(await page.locator('[data-node="review"] [data-testid="flow-node-detail"]').textContent()).toBe('Rejected: Ask for the app version first');
      expect(await page.getByTestId('triage-outcome').textContent()).toBe('Not sent: Ask for the app version first');
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
