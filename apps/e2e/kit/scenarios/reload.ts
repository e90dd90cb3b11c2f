import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { approvalPanel, chatAwaitingApproval, conversationOf, lastAssistantText, openDemo, screenshot, toolCard, waitForStatus, waitForTakeOver } from '../page-driver.js';

/**
 * A reload brings the chat back, pending approval included: over HTTP from the server, in the page
 * from the browser's IndexedDB (a mode switch there and back keeps it too).
 */
export function describeReload(target: DemoTarget, browser: () => Browser): void {
  if (target.modes.includes('page')) describeInPageReload(target, browser);
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

function describeInPageReload(target: DemoTarget, browser: () => Browser): void {
  describe('reload (page)', () => {
    it('keeps the in-page chat and its pending approval across a reload and a mode switch; approving afterwards completes the run', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, 'page');
      const { weatherAnswer, messageCount } = await chatAwaitingApproval(page);
      const before = await conversationOf(page);

      await page.reload();
      await waitForTakeOver(target, page);
      await approvalPanel(page).waitFor();
      await waitForStatus(page, 'awaiting-approval');
      expect(new URL(page.url()).searchParams.get('mode')).toBe('page');
      expect(await page.getByTestId('message').count()).toBe(messageCount);
      // The same messages, texts and tool cards (how a card renders after a reload is the reload-fidelity work's).
      expect(await conversationOf(page)).toEqual(before);
      expect(before.texts).toContain(weatherAnswer);
      expect(before.cards).toEqual(['get_weather:done', 'send_email:awaiting-approval']);
      expect(await page.getByTestId('approval-args').textContent()).toContain('bob@example.com');
      await screenshot(target, page, 'reload-restored-page');

      // Over to the server's (empty) chat and back: the in-page chat is still there.
      await page.getByRole('radio', { name: 'HTTP server' }).click();
      await page.getByRole('region', { name: 'Getting started' }).waitFor();
      await page.getByRole('radio', { name: 'In this page' }).click();
      await approvalPanel(page).waitFor();
      expect(await conversationOf(page)).toEqual(before);

      await approvalPanel(page).getByRole('button', { name: 'Approve' }).click();
      await waitForStatus(page, 'idle');
      await toolCard(page, 'send_email', 'done').waitFor();
      const answer = await lastAssistantText(page);
      expect(answer).toMatch(/Message id: msg_\w+/);

      // And a reload after the end shows the finished chat, the email sent once.
      await page.reload();
      await waitForTakeOver(target, page);
      await toolCard(page, 'send_email', 'done').waitFor();
      await waitForStatus(page, 'idle');
      expect(await lastAssistantText(page)).toBe(answer);
      expect(await toolCard(page, 'send_email').count()).toBe(1);
      expect(await approvalPanel(page).count()).toBe(0);
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
