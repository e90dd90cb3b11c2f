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
 * The Sessions panel (HTTP): rows are titled by their first message, not raw ids; picking one
 * closes the list so the conversation shows (an approval pending, on a 1280×860 window); the
 * opened session is in the URL, so a reload shows it again; New chat leaves it.
 */
export function describeSessionsPanel(target: DemoTarget, browser: () => Browser): void {
  if (!target.sessionsPanel || !target.modes.includes('http')) return;
  describe('the Sessions panel (http)', () => {
    it('titles rows by their first message, closes after a pick, and keeps the opened session in the URL across a reload', async () => {
      const context = await newContext(browser());
      const page = await context.newPage();
      await page.setViewportSize({ width: 1280, height: 860 });
      const pageErrors = collectErrors(page);
      await page.goto(target.url('http'));
      await waitForTakeOver(target, page);
      await page.locator('#composer-input').waitFor();
      await sendAndWaitForReply(page, "What's the weather in Lisbon?");
      const sessionId = await startWebhookRun(WEBHOOK_INPUT);

      const panel = page.getByTestId('sessions-panel');
      await panel.locator('summary').click();
      const item = panel.locator(`[data-testid="session-item"][data-session-id="${sessionId}"]`);
      // Titled by the webhook's input (its first user message) once the run has logged it.
      await item.locator('.session-title', { hasText: WEBHOOK_INPUT }).waitFor({ timeout: 15_000 });
      const chatRow = panel.getByTestId('session-item').filter({ hasText: "What's the weather in Lisbon?" });
      expect(await chatRow.count()).toBe(1);
      for (const text of await panel.getByTestId('session-item').allInnerTexts()) expect(text).not.toMatch(/webhook-[0-9a-f]{4}|[0-9a-f]{8}-[0-9a-f]{4}-/);
      await screenshot(target, page, 'sessions-panel-titles-http');

      await item.click();
      // The list closes: the conversation and its pending approval are what the window shows.
      expect(await panel.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
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
      await panel.locator('summary').click();
      expect(await item.getAttribute('aria-current')).toBe('true');
      await panel.locator('summary').click();

      // Approved, then New chat: back to a fresh chat of this tab, the URL without the session.
      await approvalPanel(page).getByRole('button', { name: 'Approve' }).click();
      await waitForStatus(page, 'idle');
      await page.getByRole('button', { name: 'New chat' }).click();
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
