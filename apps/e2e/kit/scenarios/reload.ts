import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { approvalPanel, chatAwaitingApproval, lastAssistantText, openDemo, screenshot, toolCard, waitForStatus, waitForTakeOver } from '../page-driver.js';

/** A reload over HTTP brings the chat back from the server, pending approval included. */
export function describeReload(target: DemoTarget, browser: () => Browser): void {
  if (!target.modes.includes('http')) return;
  describe('reload (http)', () => {
    it('restores the transcript and the pending approval, and approving after the reload completes the run', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, 'http');
      const { weatherAnswer, messageCount } = await chatAwaitingApproval(page);

      await page.reload();
      await waitForTakeOver(target, page);
      await approvalPanel(page).waitFor();
      await waitForStatus(page, 'awaiting-approval');
      // The whole transcript is back: both user messages, the weather answer, the email card.
      expect(await page.getByTestId('message').count()).toBe(messageCount);
      const transcript = await page.locator('.messages').innerText();
      expect(transcript).toContain("What's the weather in Paris?");
      expect(transcript).toContain('email bob@example.com about the launch');
      expect(transcript).toContain(weatherAnswer.split('\n').pop()!);
      expect(await page.getByTestId('approval-args').textContent()).toContain('bob@example.com');
      await screenshot(target, page, 'reload-restored-http');

      await approvalPanel(page).getByRole('button', { name: 'Approve' }).click();
      await waitForStatus(page, 'idle');
      await toolCard(page, 'send_email', 'done').waitFor();
      expect(await lastAssistantText(page)).toMatch(/Message id: msg_\w+/);
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
