import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import { newContext } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { approvalPanel, collectErrors, openDemo, sendAndWaitForReply, sendMessage, waitForTakeOver } from '../page-driver.js';

/** The approval panel's note field suggests a note that fits the tool; the chips are for the offline model only. */
export function describeApprovalNotesAndSuggestions(target: DemoTarget, browser: () => Browser): void {
  const mode = target.modes[0]!;
  describe(`approval notes and suggestions (${mode})`, () => {
    it('the note placeholder fits the tool: the email’s speaks of addresses, the triage review’s of the reply', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      await sendMessage(page, 'email bob@example.com about the launch');
      await approvalPanel(page).waitFor({ timeout: 30_000 });
      expect(await approvalPanel(page).getByLabel(/Note for the agent/).getAttribute('placeholder')).toMatch(/external addresses/);
      await approvalPanel(page).getByRole('button', { name: 'Reject' }).click();

      const url = new URL(page.url());
      url.searchParams.set('view', 'triage');
      await page.goto(url.href);
      await waitForTakeOver(target, page);
      await page.getByRole('button', { name: 'Question' }).click();
      await approvalPanel(page).waitFor({ timeout: 30_000 });
      const placeholder = await approvalPanel(page).getByLabel(/Note for the agent/).getAttribute('placeholder');
      expect(placeholder).not.toMatch(/external addresses/);
      expect(placeholder).toMatch(/order number/);
      await approvalPanel(page).getByRole('button', { name: 'Reject' }).click();
      expect(pageErrors).toEqual([]);
      await close();
    });
  });

  if (!target.modes.includes('http')) return;
  describe('suggestions with a real model (http)', () => {
    it('shows the offline model’s suggestion chips only with the offline model', async (ctx) => {
      const context = await newContext(browser());
      const page = await context.newPage();
      const pageErrors = collectErrors(page);
      let asked = 0;
      // The server says it answers with a real model (the run's server always has the offline one).
      await page.route('**/api/info', async (route) => {
        asked++;
        const response = await route.fetch();
        const info = (await response.json()) as Record<string, unknown>;
        const model = { kind: 'real', provider: 'openai', model: 'gpt-4o-mini', notice: 'You are chatting with a real model: openai/gpt-4o-mini.' };
        await route.fulfill({ response, json: { ...info, model } });
      });
      await page.goto(target.url('http'));
      await waitForTakeOver(target, page);
      await page.locator('#composer-input').waitFor();
      // (The SvelteKit demo reads the model on its server, not from /api/info: its own test starts a server with a real model.)
      if (asked === 0) {
        await context.close();
        ctx.skip();
        return;
      }
      await page.getByTestId('model-notice').filter({ hasText: 'real model' }).waitFor();
      expect(await page.getByRole('region', { name: 'Getting started' }).locator('.chip').count()).toBe(0);
      await sendAndWaitForReply(page, 'echo hi');
      expect(await page.locator('.chip').count()).toBe(0);

      // In the page, where the offline model always answers, they are there.
      await page.getByRole('radio', { name: 'In this page' }).click();
      await page.getByRole('region', { name: 'Getting started' }).waitFor();
      expect(await page.getByRole('region', { name: 'Getting started' }).locator('.chip').count()).toBeGreaterThan(0);
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  });
}
