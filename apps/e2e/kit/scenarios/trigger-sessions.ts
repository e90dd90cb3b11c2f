import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import { E2E_WEBHOOK_TOKEN } from '../demo-server.js';
import { runServerUrl, type DemoTarget } from '../demo-target.js';
import { approvalPanel, lastAssistantText, openDemo, screenshot, toolCard, waitForStatus } from '../page-driver.js';

/** Where the run's server has its webhook trigger (its `GET /api/info` says). */
async function webhookUrl(): Promise<string> {
  const info = (await (await fetch(new URL('/api/info', runServerUrl()))).json()) as { triggers?: { webhook?: string } };
  if (!info.triggers?.webhook) throw new Error('GET /api/info names no webhook trigger.');
  return info.triggers.webhook;
}

/**
 * A run a webhook started is a thread like a chat: it shows up in the thread sidebar, the chat
 * follows it live (the research's progress), its email waits for approval there, and it finishes.
 */
export function describeTriggerSessions(target: DemoTarget, browser: () => Browser): void {
  if (!target.sessionsPanel || !target.modes.includes('http')) return;
  describe('a webhook run in the thread sidebar (http)', () => {
    it('lists the run, follows it while it streams, approves its email, and sees it finish', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, 'http');
      const url = await webhookUrl();

      // The wrong token is refused, and starts nothing.
      const refused = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);

      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${E2E_WEBHOOK_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: 'research solar power and email bob@example.com about it' }),
      });
      expect(response.status).toBe(202);
      const { sessionId } = (await response.json()) as { sessionId: string };
      expect(sessionId).toMatch(/^webhook-/);

      const panel = page.getByRole('navigation', { name: 'Threads' });
      const item = panel.locator(`[data-testid="thread-item"][data-session-id="${sessionId}"]`);
      await item.waitFor({ timeout: 10_000 });
      expect(await item.getAttribute('data-origin')).toBe('webhook');
      // Newest first: the webhook's session heads the list.
      expect(await panel.getByTestId('thread-item').first().getAttribute('data-session-id')).toBe(sessionId);
      await screenshot(target, page, 'trigger-session-listed-http');

      await item.click();
      await expect.poll(() => item.getAttribute('aria-current')).toBe('page');
      // Followed live: the research's progress bar moves while the run goes on.
      const research = toolCard(page, 'research_topic');
      await research.getByTestId('tool-progress').waitFor();
      await screenshot(target, page, 'trigger-session-streaming-http');

      const approval = approvalPanel(page);
      await approval.waitFor({ timeout: 30_000 });
      await waitForStatus(page, 'awaiting-approval');
      expect(await approval.getByTestId('approval-args').textContent()).toContain('bob@example.com');
      await toolCard(page, 'research_topic', 'done').waitFor();
      await screenshot(target, page, 'trigger-session-approval-http');

      await approval.getByRole('button', { name: 'Approve' }).click();
      await waitForStatus(page, 'idle');
      await toolCard(page, 'send_email', 'done').waitFor();
      const messageId = /msg_\w+/.exec(await toolCard(page, 'send_email').getByTestId('tool-result').innerText())?.[0];
      expect(messageId).toBeDefined();
      expect(await lastAssistantText(page)).toContain(messageId!);

      // The server agrees: the session is idle, nothing pending.
      const session = (await (await fetch(new URL(`/api/agent/sessions/${sessionId}`, runServerUrl()))).json()) as { status: string; pendingApproval: unknown };
      expect(session).toMatchObject({ status: 'idle', pendingApproval: null });
      await screenshot(target, page, 'trigger-session-done-http');
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
