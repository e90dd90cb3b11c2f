import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { lastAssistantText, openDemo, screenshot, sendAndWaitForReply, sendMessage, toolCard, userMessages, waitForStatus } from '../page-driver.js';

/** A question the agent asks back, and the simulated model failure (dismissed, retried). */
export function describeQuestionAndError(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('question (%s)', (mode) => {
    it('asks, takes the typed answer, and the reply uses it', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      await sendMessage(page, 'Help me plan a trip');
      const form = page.getByTestId('question-form');
      await form.waitFor();
      await waitForStatus(page, 'awaiting-approval');
      expect((await form.getByTestId('question-text').textContent())?.trim()).not.toBe('');
      await screenshot(target, page, `question-${mode}`);

      await form.getByLabel('Your answer').fill('Lisbon');
      await form.getByRole('button', { name: 'Answer' }).click();
      await waitForStatus(page, 'idle');
      expect(await page.getByTestId('question-form').count()).toBe(0);
      await toolCard(page, 'ask_question', 'done').waitFor();
      expect(await lastAssistantText(page)).toContain('Lisbon');
      expect(pageErrors).toEqual([]);
      await close();
    });
  });

  describe.each(target.modes)('error (%s)', (mode) => {
    it('shows the simulated failure plainly; dismiss hides it and the chat goes on', async () => {
      const { page, close } = await openDemo(browser(), target, mode);
      await sendMessage(page, 'simulate error');
      await waitForStatus(page, 'error');
      const banner = page.getByRole('alert');
      await banner.waitFor();
      expect(await banner.getByTestId('error-message').textContent()).toBe('The demo model failed on purpose (you asked it to).');
      expect(await banner.textContent()).toContain('LOUSHO_PROVIDER_ERROR');
      expect(await banner.textContent()).not.toMatch(/\bat .+:\d+:\d+/); // no stack trace
      await screenshot(target, page, `error-${mode}`);

      await banner.getByRole('button', { name: 'Dismiss' }).click();
      expect(await page.getByRole('alert').count()).toBe(0);
      await sendAndWaitForReply(page, 'echo still here');
      expect(await lastAssistantText(page)).toBe('still here');
      await close();
    });

    it('retry sends the failed message again; after it fails again, dismiss works and the chat goes on', async () => {
      const { page, close } = await openDemo(browser(), target, mode);
      await sendMessage(page, 'simulate error');
      await waitForStatus(page, 'error');
      const users = userMessages(page);
      expect(await users.count()).toBe(1);
      await page.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"][data-role="user"]').length === 2);
      await waitForStatus(page, 'error');
      expect(await users.last().textContent()).toBe('simulate error');

      await page.getByRole('alert').getByRole('button', { name: 'Dismiss' }).click();
      expect(await page.getByRole('alert').count()).toBe(0);
      await sendAndWaitForReply(page, 'echo still here');
      expect(await lastAssistantText(page)).toBe('still here');
      await close();
    });
  });
}
