import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import type { Page } from 'playwright-core';
import { lastAssistantText, openDemo, screenshot, sendAndWaitForReply, userMessages } from '../page-driver.js';

/** Markup the demo model echoes back. */
export const HTML_PAYLOAD = '<img src=x onerror="window.__xss=1">';

/**
 * Markdown a hostile model might send, echoed back by the demo model, with what the reply shows:
 * links only to http(s) addresses, raw HTML as text, no image ever loaded, no data: URL followed.
 */
export const MARKDOWN_PAYLOADS: readonly { markdown: string; shows: string }[] = [
  { markdown: '[click me](javascript:window.__xss=1)', shows: 'click me' },
  { markdown: '[click me](JaVaScRiPt:window.__xss=1 "title")', shows: 'click me' },
  { markdown: '**bold** <img src=x onerror="window.__xss=1"> and <script>window.__xss=1</script>', shows: 'bold <img src=x onerror="window.__xss=1"> and <script>window.__xss=1</script>' },
  { markdown: '<details open ontoggle="window.__xss=1">\n\n*inside*\n\n</details>', shows: '<details open ontoggle="window.__xss=1">' },
  { markdown: '![x" onerror="window.__xss=1](x)', shows: 'x" onerror="window.__xss=1' },
  { markdown: '![pixel](https://example.com/pixel.png)', shows: 'Image: pixel' },
  { markdown: '[data](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)', shows: 'data' },
  { markdown: '![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9IndpbmRvdy5fX3hzcz0xIi8+)', shows: 'svg' },
  { markdown: '<javascript:window.__xss=1> and <https://example.com/ok> and www.example.org', shows: 'javascript:window.__xss=1 and https://example.com/ok and www.example.org' },
  { markdown: '[ref link][r]\n\n[r]: javascript:window.__xss=1', shows: 'ref link' },
];

/** What the transcript holds that it must not: elements that load or run, event handlers, unsafe or same-tab links. */
async function unsafeMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.querySelectorAll('.messages *')) {
      if (/^(img|script|iframe|object|embed|svg|style|form|input|details|video|audio|source|link|meta|base)$/i.test(el.tagName)) found.push(el.outerHTML);
      for (const attr of el.attributes) if (/^on/i.test(attr.name) || attr.name === 'src' || attr.name === 'style') found.push(`${el.tagName} ${attr.name}="${attr.value}"`);
      if (el.tagName === 'A') {
        const href = el.getAttribute('href') ?? '';
        if (!/^(https?|mailto):/i.test(href) || el.getAttribute('target') !== '_blank' || !/\bnoopener\b/.test(el.getAttribute('rel') ?? '')) found.push(el.outerHTML);
      }
    }
    return found;
  });
}

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

    it('renders Markdown, and hostile Markdown (javascript: and data: links, raw HTML, images with onerror, autolinks) runs nothing', async () => {
      const demo = await openDemo(browser(), target, mode);
      const { page, pageErrors, close } = demo;
      await sendAndWaitForReply(page, 'echo ## Plan\nThe **first** step, then `npm test`:\n\n1. read [the docs](https://example.com/docs)\n2. write <b>code</b>');
      const reply = page.locator('[data-testid="message"][data-role="assistant"]').last().getByTestId('text');
      expect(await reply.evaluate((el) => [...el.querySelectorAll('*')].map((child) => child.tagName.toLowerCase()))).toEqual(['h4', 'p', 'strong', 'code', 'ol', 'li', 'a', 'li']);
      expect(await reply.getByRole('link', { name: 'the docs' }).getAttribute('href')).toBe('https://example.com/docs');
      expect(await lastAssistantText(page)).toContain('write <b>code</b>');

      for (const { markdown, shows } of MARKDOWN_PAYLOADS) {
        await sendAndWaitForReply(page, `echo ${markdown}`);
        expect(await lastAssistantText(page), markdown).toContain(shows);
        expect(await unsafeMarkup(page), markdown).toEqual([]);
      }
      // The only links are the safe ones: the docs, the image turned link, the two autolinks.
      expect(await page.locator('.messages a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
        'https://example.com/docs',
        'https://example.com/pixel.png',
        'https://example.com/ok',
        'http://www.example.org/',
      ]);
      // Clicking what was a javascript: link does nothing either.
      await page.locator('[data-testid="message"][data-role="assistant"]').getByText('click me').first().click();
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
      await screenshot(target, page, `markdown-safe-${mode}`);
      expect(pageErrors).toEqual([]);
      await close();
    });

    it('while a reply streams, earlier messages are not redrawn', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      await sendAndWaitForReply(page, 'echo A **Markdown** reply with a [link](https://example.com/) and\n\n- a\n- list');
      await sendAndWaitForReply(page, "What's the weather in Paris?");
      // Watches every message shown so far, and the list they are in, for any change in the page.
      await page.evaluate(() => {
        const watch = window as unknown as { __earlier: string[]; __list: number };
        watch.__earlier = [];
        watch.__list = 0;
        const describe = (record: MutationRecord): string => {
          const target = record.target instanceof Element ? record.target : record.target.parentElement;
          const where = `${target?.tagName.toLowerCase()}.${target?.className}[${target?.getAttribute('data-testid') ?? ''}]`;
          return `${record.type} ${record.attributeName ?? ''} in ${where}: ${record.oldValue ?? ''}`;
        };
        const earlier = new MutationObserver((records) => watch.__earlier.push(...records.map(describe)));
        for (const message of document.querySelectorAll('[data-testid="message"]')) earlier.observe(message, { subtree: true, childList: true, characterData: true, attributes: true, attributeOldValue: true, characterDataOldValue: true });
        new MutationObserver((records) => (watch.__list += records.length)).observe(document.querySelector('.messages')!, { subtree: true, childList: true, characterData: true });
      });
      // A long reply, streamed in many steps.
      await sendAndWaitForReply(page, 'hello');
      const counts = await page.evaluate(() => {
        const watch = window as unknown as { __earlier: string[]; __list: number };
        return { earlier: watch.__earlier, list: watch.__list };
      });
      expect(await lastAssistantText(page)).toContain('Try one of these');
      expect(counts.list, 'the new reply did change the page').toBeGreaterThan(10);
      expect(counts.earlier, 'changes inside the earlier messages').toEqual([]);
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
