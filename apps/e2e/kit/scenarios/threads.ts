import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations, describeViolations } from '../accessibility.js';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { openDemo, screenshot, sendMessage, toolCard, waitForStatus, waitForTakeOver } from '../page-driver.js';

const RESEARCH = 'Research the history of the lighthouse';
const WEATHER = "What's the weather in Oslo?";

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Threads' });
const threadRow = (page: Page, id: string) => sidebar(page).locator(`[data-testid="thread-item"][data-session-id="${id}"]`);
const openedThread = (page: Page): string | null => new URL(page.url()).searchParams.get('session');

/** Waits until the URL names a thread other than `than` (a new thread gets its id on its first message); that id. */
async function nextThreadId(page: Page, than: string | null = null): Promise<string> {
  await page.waitForURL((url) => {
    const id = url.searchParams.get('session');
    return id !== null && id !== than;
  });
  return openedThread(page)!;
}

/**
 * The thread sidebar: two threads, the first still running when the visitor comes back to it (it
 * finishes live), back and forward switch threads, rename, delete, and a reload keeps the opened
 * thread; axe-clean at 1280 and 390 px (there behind a button).
 */
export function describeThreads(target: DemoTarget, browser: () => Browser): void {
  if (!target.threadSidebar) return;
  describe.each(target.modes)('threads (%s)', (mode) => {
    it('starts two threads, follows the first live on return, switches with back and forward, renames, deletes, and keeps the opened thread across a reload', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      await page.setViewportSize({ width: 1280, height: 860 });
      const nav = sidebar(page);
      await nav.waitFor();
      expect(await nav.getByRole('list').count()).toBe(1);

      // Thread A: a research that runs a few seconds.
      await sendMessage(page, RESEARCH);
      const first = await nextThreadId(page);
      await toolCard(page, 'research_topic').getByTestId('tool-progress').waitFor();
      await threadRow(page, first).waitFor({ timeout: 10_000 });

      // Thread B while A runs: New chat, a message (the URL gets B's id at once).
      await nav.getByRole('button', { name: 'New chat', exact: true }).click();
      await page.getByRole('region', { name: 'Getting started' }).waitFor();
      await sendMessage(page, WEATHER);
      const second = await nextThreadId(page, first);
      expect(second).not.toBe(first);

      // Back to A: still running, followed live to the end.
      await threadRow(page, first).click();
      expect(openedThread(page)).toBe(first);
      await toolCard(page, 'research_topic', 'running').waitFor({ timeout: 5_000 });
      await screenshot(target, page, `threads-running-${mode}`);
      await toolCard(page, 'research_topic', 'done').waitFor({ timeout: 30_000 });
      await waitForStatus(page, 'idle');
      await expect.poll(() => threadRow(page, first).getAttribute('aria-current')).toBe('page');
      // B went on without the page, and is titled by its first message.
      await expect.poll(() => threadRow(page, second).getAttribute('data-status'), { timeout: 15_000 }).toBe('idle');
      await expect.poll(() => threadRow(page, second).locator('.thread-title').innerText()).toBe(WEATHER);

      // Back and forward switch threads.
      await page.goBack();
      await page.waitForURL((url) => url.searchParams.get('session') === second);
      await page.locator('.messages', { hasText: 'Oslo' }).waitFor();
      await expect.poll(() => threadRow(page, second).getAttribute('aria-current')).toBe('page');
      await page.goForward();
      await page.waitForURL((url) => url.searchParams.get('session') === first);
      await toolCard(page, 'research_topic', 'done').waitFor();

      // Rename A.
      await nav.getByRole('button', { name: `Rename “${RESEARCH}”`, exact: true }).click();
      const title = nav.getByRole('textbox', { name: 'Thread title' });
      await title.fill('Bicycle history');
      await title.press('Enter');
      await threadRow(page, first).locator('.thread-title', { hasText: 'Bicycle history' }).waitFor();

      // Delete B.
      await nav.getByRole('button', { name: `Delete “${WEATHER}”`, exact: true }).click();
      await threadRow(page, second).waitFor({ state: 'detached' });
      await screenshot(target, page, `threads-sidebar-${mode}`);
      const violations = await seriousA11yViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);

      // A reload keeps the opened thread, its new title and the deletion.
      await page.reload();
      await waitForTakeOver(target, page);
      await toolCard(page, 'research_topic', 'done').waitFor({ timeout: 15_000 });
      await threadRow(page, first).locator('.thread-title', { hasText: 'Bicycle history' }).waitFor();
      expect(await threadRow(page, first).getAttribute('aria-current')).toBe('page');
      expect(await threadRow(page, second).count()).toBe(0);

      // On a phone the list folds behind a button.
      await page.setViewportSize({ width: 390, height: 800 });
      const toggle = page.getByRole('button', { name: 'Threads', exact: true });
      expect(await nav.isVisible()).toBe(false);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      await nav.waitFor();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await screenshot(target, page, `threads-narrow-${mode}`);
      const narrow = await seriousA11yViolations(page);
      expect(narrow, describeViolations(narrow)).toEqual([]);
      await threadRow(page, first).click();
      await nav.waitFor({ state: 'hidden' });

      expect(pageErrors).toEqual([]);
      await close();
    }, 120_000);
  });
}
