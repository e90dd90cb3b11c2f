import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { approvalPanel, lastAssistantText, openDemo, screenshot, sendMessage, toolCard, waitForStatus } from '../page-driver.js';

/** The email tool waits for a decision: approved in every mode, rejected with a note over HTTP. */
export function describeApproval(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('approval flow (%s)', (mode) => {
    it('shows the email for approval, sends it once approved, and the answer names the message id', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      await page.getByTestId('model-notice').filter({ hasText: 'Offline demo model' }).waitFor();
      await screenshot(target, page, `welcome-${mode}`);
      await sendMessage(page, 'email bob@example.com about the launch');

      const panel = approvalPanel(page);
      await panel.waitFor();
      await waitForStatus(page, 'awaiting-approval');
      const args = await panel.getByTestId('approval-args').textContent();
      expect(args).toContain('bob@example.com');
      expect(args).toContain('launch');
      const card = toolCard(page, 'send_email');
      expect(await card.getAttribute('data-state')).toBe('awaiting-approval');
      await screenshot(target, page, `approval-panel-${mode}`);

      await panel.getByRole('button', { name: 'Approve' }).click();
      await waitForStatus(page, 'idle');
      await toolCard(page, 'send_email', 'done').waitFor();
      expect(await approvalPanel(page).count()).toBe(0);

      const result = await card.getByTestId('tool-result').innerText();
      const messageId = /msg_\w+/.exec(result)?.[0];
      expect(messageId, `a message id in the tool result: ${result}`).toBeDefined();
      expect(await lastAssistantText(page)).toContain(messageId!);
      expect(await page.getByTestId('usage').textContent()).toMatch(/\d+ in \/ \d+ out tokens/);
      await screenshot(target, page, `approved-${mode}`);
      expect(pageErrors).toEqual([]);
      await close();
    });
  });

  if (!target.modes.includes('http')) return;
  describe('reject with a note (http)', () => {
    it('does not send the email, and the answer quotes the note', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, 'http');
      await sendMessage(page, 'email bob@example.com about the launch');
      const panel = approvalPanel(page);
      await panel.waitFor();

      const note = 'Not before the press release is out';
      await panel.getByLabel(/Note for the agent/).fill(note);
      await panel.getByRole('button', { name: 'Reject' }).click();

      await waitForStatus(page, 'idle');
      await toolCard(page, 'send_email', 'rejected').waitFor();
      expect(await toolCard(page, 'send_email').getByTestId('tool-decision').textContent()).toContain(note);
      const answer = await lastAssistantText(page);
      expect(answer).toContain(`"${note}"`);
      expect(answer).not.toMatch(/msg_\w+/);
      await screenshot(target, page, 'rejected-http');
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
