import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { SCREENSHOTS_DIR } from './paths.js';

/** Debian's Chromium; CI installs it with apt-get. A browser is never downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A fresh Chromium profile. Fails (never skips) when Chromium is not installed. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Debian's Chromium at ${CHROMIUM}. Install it with: apt-get install -y chromium`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'lousho-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1180, height: 860 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export type DemoMode = 'http' | 'page';

export interface DemoPage {
  page: Page;
  /** Uncaught errors of the page (a broken render, a CSP violation reported as an error). */
  pageErrors: string[];
}

/**
 * Opens the React demo in a new tab (its own sessionStorage) in the given mode, from the shared demo
 * server unless `serverUrl` names another one.
 */
export async function openDemo(browser: Browser, mode: DemoMode, serverUrl: string = inject('demoUrl')): Promise<DemoPage> {
  const page = await browser.context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  const url = new URL(mode === 'page' ? '/?mode=page' : '/', serverUrl);
  await page.goto(url.href);
  await page.locator('#composer-input').waitFor();
  return { page, pageErrors };
}

export async function sendMessage(page: Page, text: string): Promise<void> {
  await page.locator('#composer-input').fill(text);
  await page.locator('#composer-input').press('Enter');
}

/**
 * Sends `text` and waits for the whole reply: one more user message, an assistant message after it,
 * and the status line at `status`. (Waiting for `idle` alone could match the state before the send.)
 */
export async function sendAndWaitForReply(page: Page, text: string, status = 'idle', timeout = 30_000): Promise<void> {
  const users = await page.locator('[data-testid="message"][data-role="user"]').count();
  await sendMessage(page, text);
  await page.waitForFunction(
    ({ users, status }) => {
      const messages = [...document.querySelectorAll<HTMLElement>('[data-testid="message"]')];
      const userCount = messages.filter((m) => m.dataset['role'] === 'user').length;
      const shown = document.querySelector<HTMLElement>('[data-testid="status"]')?.dataset['status'];
      return userCount === users + 1 && messages[messages.length - 1]?.dataset['role'] === 'assistant' && shown === status;
    },
    { users, status },
    { timeout },
  );
}

/** Waits until the status line shows `status` (the hook's `status` value). */
export async function waitForStatus(page: Page, status: string, timeout = 30_000): Promise<void> {
  await page.locator(`[data-testid="status"][data-status="${status}"]`).waitFor({ timeout });
}

/** The text of the latest assistant message's text parts. */
export async function lastAssistantText(page: Page): Promise<string> {
  const texts = await page.locator('[data-testid="message"][data-role="assistant"]').last().locator('[data-testid="text"]').allTextContents();
  return texts.join('\n');
}

/** Saves a screenshot under apps/e2e/screenshots/ and prints where. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const path = join(SCREENSHOTS_DIR, `${name}.png`);
  await page.screenshot({ path });
  console.log(`[e2e] screenshot: ${path}`);
  return path;
}
