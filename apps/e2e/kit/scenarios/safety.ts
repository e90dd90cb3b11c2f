import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { lastAssistantText, openDemo, screenshot, sendAndWaitForReply, userMessages } from '../page-driver.js';

/** Markup the demo model echoes back. */
export const HTML_PAYLOAD = '<img src=x onerror="window.__xss=1">';

/** Model text (and the user's own) is shown as text: markup in it is neither rendered nor run. */
export function describeSafety(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('model text is rendered as text (%s)', (mode) => {
    it('shows an <img onerror> reply literally and never runs it', async () => {
      const demo = await openDemo(browser(), target, mode);
      const { page, pageErrors, close } = demo;
      await sendAndWaitForReply(page, `echo ${HTML_PAYLOAD}`);

      expect(await lastAssistantText(page)).toBe(HTML_PAYLOAD);
      expect(await page.locator('.messages img').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
      // The user's own message is text too.
      expect(await userMessages(page).last().textContent()).toContain(HTML_PAYLOAD);
      await screenshot(target, page, `html-as-text-${mode}`);
      await target.extraChecks?.safety?.(demo, mode);
      // Not even a blocked attempt (the CSP would report one as a console error).
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
