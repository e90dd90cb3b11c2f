import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { SCREENSHOTS_DIR } from './paths.js';

/** Debian's Chromium; CI installs it with apt-get. A browser is never downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-quic', '--no-first-run', '--disable-sync'];

export type { Browser };

/** Chromium, headless. Fails (never skips) when it is not installed. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Debian's Chromium at ${CHROMIUM}. Install it with: apt-get install -y chromium`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export const appUrl = (path = '/'): string => new URL(path, inject('appUrl')).href;

/** A fresh browser context: its own cookies (so its own chat session). */
export function newContext(browser: Browser, options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1180, height: 860 }, deviceScaleFactor: 1, colorScheme: 'light', ...options });
}

export type DemoMode = 'http' | 'page';

export interface DemoPage {
  page: Page;
  context: BrowserContext;
  /** Uncaught errors and console errors of the page (a broken render, a CSP violation). */
  pageErrors: string[];
  close(): Promise<void>;
}

/** Records the page's uncaught errors and console errors. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/** Waits until the page is hydrated (before that it is the server's HTML, and typing does nothing useful). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator('.app[data-hydrated="true"]').waitFor();
}

/** Opens the demo in a new context (a new visitor, no session cookie) in the given mode. */
export async function openDemo(browser: Browser, mode: DemoMode, context?: BrowserContext): Promise<DemoPage> {
  const ownContext = context ?? (await newContext(browser));
  const page = await ownContext.newPage();
  const pageErrors = collectErrors(page);
  await page.goto(appUrl(mode === 'page' ? '/?mode=page' : '/'));
  await waitForHydration(page);
  return { page, context: ownContext, pageErrors, close: () => (context ? page.close() : ownContext.close()) };
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

/** Waits until the status line shows `status` (the store's `$agent.status`). */
export async function waitForStatus(page: Page, status: string, timeout = 30_000): Promise<void> {
  await page.locator(`[data-testid="status"][data-status="${status}"]`).waitFor({ timeout });
}

/** The text of the latest assistant message's text parts. */
export async function lastAssistantText(page: Page): Promise<string> {
  const texts = await page.locator('[data-testid="message"][data-role="assistant"]').last().locator('[data-testid="text"]').allTextContents();
  return texts.join('\n');
}

/** The session cookie of a context (set by the page on its first send). */
export async function sessionCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((cookie) => cookie.name === 'lousho_session')?.value;
}

/** The page's HTML as the server renders it for a visitor with this session cookie: no JavaScript involved. */
export async function serverHtml(sessionId: string, path = '/'): Promise<string> {
  const response = await fetch(appUrl(path), { headers: { cookie: `lousho_session=${encodeURIComponent(sessionId)}`, accept: 'text/html' } });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}.`);
  return response.text();
}

/** Saves a screenshot under apps/sveltekit-demo/e2e/screenshots/ (not committed) and prints where. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const path = join(SCREENSHOTS_DIR, `${name}.png`);
  await page.screenshot({ path });
  console.log(`[svelte-e2e] screenshot: ${path}`);
  return path;
}
