import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import { newContext } from '../chromium.js';
import { E2E_WEBHOOK_TOKEN } from '../demo-server.js';
import { runServerUrl, type DemoTarget } from '../demo-target.js';
import { approvalPanel, collectErrors, sendAndWaitForReply, screenshot, waitForStatus, waitForTakeOver } from '../page-driver.js';

const WEBHOOK_INPUT = 'email bob@example.com about the launch';

/** Starts a webhook run on the run's server; its session id. */
async function startWebhookRun(input: string): Promise<string> {
  const info = (await (await fetch(new URL('/api/info', runServerUrl()))).json()) as { triggers?: { webhook?: string } };
  if (!info.triggers?.webhook) throw new Error('GET /api/info names no webhook trigger.');
  const response = await fetch(info.triggers.webhook, {
    method: 'POST',
    headers: { authorization: `Bearer ${E2E_WEBHOOK_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ input }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { sessionId: string }).sessionId;
}

/**
 * The thread sidebar with a webhook's thread (HTTP): rows are titled by their first message, not raw
 * ids, and say where they came from; picking one shows the conversation (an approval pending, on a
 * 1280×860 window); the opened thread is in the URL, so a reload shows it again; New chat leaves it.
 */
export function describeSessionsPanel(target: DemoTarget, browser: () => Browser): void {
  if (!target.sessionsPanel || !target.modes.includes('http')) return;
  describe('the thread sidebar with a webhook thread (http)', () => {
    it('titles rows by their first message, shows the origin, and keeps the opened thread in the URL across a reload', async () => {
      const context = await newContext(browser());
      const page = await context.newPage();
      await page.setViewportSize({ width: 1280, height: 860 });
      const pageErrors = collectErrors(page);
      await page.goto(target.url('http'));
      await waitForTakeOver(target, page);
      await page.locator('#composer-input').waitFor();
      await sendAndWaitForReply(page, "What's the weather in Lisbon?");
      const sessionId = await startWebhookRun(WEBHOOK_INPUT);

      const panel = page.getByRole('navigation', { name: 'Threads' });
      const item = panel.locator(`[data-testid="thread-item"][data-session-id="${sessionId}"]`);
      // Titled by the webhook's input (its first user message) once the run has logged it.
      await item.locator('.thread-title', { hasText: WEBHOOK_INPUT }).waitFor({ timeout: 15_000 });
      expect(await item.getAttribute('data-origin')).toBe('webhook');
      expect(await item.innerText()).toContain('Webhook');
      const chatRow = panel.getByTestId('thread-item').filter({ hasText: "What's the weather in Lisbon?" });
      expect(await chatRow.count()).toBe(1);
      expect(await chatRow.getAttribute('data-origin')).toBe('chat');
      for (const text of await panel.getByTestId('thread-item').allInnerTexts()) expect(text).not.toMatch(/webhook-[0-9a-f]{4}|[0-9a-f]{8}-[0-9a-f]{4}-/);
      await screenshot(target, page, 'sessions-panel-titles-http');

      await item.click();
      // The conversation and its pending approval are what the window shows.
      await approvalPanel(page).waitFor({ timeout: 30_000 });
      await waitForStatus(page, 'awaiting-approval');
      const conversation = await page.locator('.chat-scroll').boundingBox();
      expect(conversation!.height).toBeGreaterThan(200);
      await expect.poll(() => page.locator('[data-testid="message"][data-role="user"]').first().isVisible()).toBe(true);
      expect(await page.locator('.messages').innerText()).toContain(WEBHOOK_INPUT);
      expect(new URL(page.url()).searchParams.get('session')).toBe(sessionId);
      // The status bar tells sessions apart (not "session webhook-" for every webhook run).
      expect((await page.locator('.status-bar .session-id').textContent())?.trim()).toBe(`session ${sessionId.slice('webhook-'.length, 'webhook-'.length + 8)}`);
      await screenshot(target, page, 'sessions-panel-opened-http');

      // A reload shows the opened session again, its approval still pending.
      await page.reload();
      await waitForTakeOver(target, page);
      await approvalPanel(page).waitFor({ timeout: 15_000 });
      expect(await page.locator('.messages').innerText()).toContain(WEBHOOK_INPUT);
      expect(await approvalPanel(page).getByTestId('approval-args').textContent()).toContain('bob@example.com');
      await expect.poll(() => item.getAttribute('aria-current')).toBe('page');

      // Approved, then New chat: back to a fresh chat of this tab, the URL without the session.
      await approvalPanel(page).getByRole('button', { name: 'Approve' }).click();
      await waitForStatus(page, 'idle');
      await panel.getByRole('button', { name: 'New chat' }).click();
      await page.getByRole('region', { name: 'Getting started' }).waitFor();
      await page.waitForURL((url) => !url.searchParams.has('session'));
      await page.getByRole('region', { name: 'Getting started' }).waitFor();
      await page.reload();
      await waitForTakeOver(target, page);
      await page.getByRole('region', { name: 'Getting started' }).waitFor();
      expect(pageErrors).toEqual([]);
      await context.close();
    }, 120_000);
  });
}
