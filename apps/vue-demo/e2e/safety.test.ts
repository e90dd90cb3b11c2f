import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, lastAssistantText, openDemo, screenshot, sendAndWaitForReply, type Browser, type DemoMode } from './browser.js';

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
    const { page, pageErrors } = await openDemo(browser, mode);
    await sendAndWaitForReply(page, `echo ${PAYLOAD}`);

    expect(await lastAssistantText(page)).toBe(PAYLOAD);
    expect(await page.locator('.messages img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    // The user's own message is text too.
    expect(await page.locator('[data-testid="message"][data-role="user"]').last().textContent()).toContain(PAYLOAD);
    await screenshot(page, `html-as-text-${mode}`);
    // Not even a blocked attempt (the CSP would report one as a console error).
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
