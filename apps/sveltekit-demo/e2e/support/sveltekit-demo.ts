import { fileURLToPath } from 'node:url';
import { demoUrl, HTML_PAYLOAD, lastAssistantText, runServerUrl, type BrowserContext, type DemoTarget } from 'e2e/kit';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export const APP_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** An address of the app the run started (`node build`). */
export const appUrl = (path = '/'): string => new URL(path, runServerUrl()).href;

/** Waits until the page is hydrated (before that it is the server's HTML, and typing does nothing useful). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator('.app[data-hydrated="true"]').waitFor();
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

/** The SvelteKit demo: server-rendered, then hydrated; the chat of a visitor lives under its session cookie. */
export const sveltekitDemo: DemoTarget = {
  label: 'svelte-e2e',
  modes: ['http', 'page'],
  sessionsPanel: true,
  threadSidebar: true,
  url: (mode, serverUrl) => demoUrl('/', mode, serverUrl),
  screenshotsDir: fileURLToPath(new URL('../screenshots/', import.meta.url)),
  takenOver: waitForHydration,
  extraChecks: {
    async safety({ page, context }, mode) {
      if (mode !== 'http') return;
      // The server-rendered page (what a reload shows first) escapes it as well...
      const html = await serverHtml((await sessionCookie(context))!);
      expect(html).toContain('&lt;img src=x onerror="window.__xss=1">');
      // The reply as the server's Markdown renderer gives it: the tag as text in a paragraph, sanitized in jsdom.
      expect(html).toContain('<p>&lt;img src=x onerror="window.__xss=1"&gt;</p>');
      expect(html).not.toContain('<img src=x');
      // ...and so does the page after a reload, hydrated.
      await page.reload();
      await waitForHydration(page);
      expect(await lastAssistantText(page)).toBe(HTML_PAYLOAD);
      expect(await page.locator('.messages img').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    },
  },
};
