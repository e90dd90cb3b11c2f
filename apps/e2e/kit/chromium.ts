import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export type { Browser, BrowserContext };

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

/**
 * Headless Chromium on a fresh temporary profile (Playwright deletes it on close). Fails, never
 * skips, when Chromium is not installed.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Debian's Chromium at ${CHROMIUM}. Install it with: apt-get install -y chromium`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** A new visitor: its own cookies and storage, the same window size and colours (light unless asked) for every screenshot. */
export function newContext(browser: Browser, options: Pick<BrowserContextOptions, 'javaScriptEnabled' | 'colorScheme'> = {}): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1180, height: 860 }, deviceScaleFactor: 1, colorScheme: 'light', ...options });
}

/**
 * Launches Chromium before the tests of the current file (or describe block) and closes it after
 * them. Returns a getter, since the browser only exists once `beforeAll` has run.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('Chromium is not running: its launch in beforeAll failed (see the error above).');
    return browser;
  };
}
