import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastAssistantText, launchBrowser, openDemo, screenshot, sendAndWaitForReply, serverHtml, sessionCookie, type Browser, type DemoMode } from './support/browser.js';

const PAYLOAD = '<img src=x onerror="window.__xss=1">';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each<DemoMode>(['http', 'page'])('model text is rendered as text (%s)', (mode) => {
  it('shows an <img onerror> reply literally and never runs it', async () => {
    const { page, context, pageErrors, close } = await openDemo(browser, mode);
    await sendAndWaitForReply(page, `echo ${PAYLOAD}`);

    expect(await lastAssistantText(page)).toBe(PAYLOAD);
    expect(await page.locator('.messages img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    // The user's own message is text too.
    expect(await page.locator('[data-testid="message"][data-role="user"]').last().textContent()).toContain(PAYLOAD);
    await screenshot(page, `html-as-text-${mode}`);

    if (mode === 'http') {
      // The server-rendered page (what a reload shows first) escapes it as well...
      const html = await serverHtml((await sessionCookie(context))!);
      expect(html).toContain('&lt;img src=x onerror="window.__xss=1">');
      expect(html).not.toContain('<img src=x');
      // ...and so does the page after a reload, hydrated.
      await page.reload();
      await page.locator('.app[data-hydrated="true"]').waitFor();
      expect(await lastAssistantText(page)).toBe(PAYLOAD);
      expect(await page.locator('.messages img').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    }
    // Not even a blocked attempt (the CSP would report one as a console error).
    expect(pageErrors).toEqual([]);
    await close();
  });
});
