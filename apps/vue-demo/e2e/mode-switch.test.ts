import { lastAssistantText, openDemo, screenshot, sendAndWaitForReply, useBrowser } from 'e2e/kit';
import { describe, expect, it } from 'vitest';
import { vueDemo } from './vue-demo.js';

const browser = useBrowser();

describe('the in-process switch', () => {
  it('is the Vue demo, and each mode keeps its own chat: HTTP by default, the page agent after the switch', async () => {
    const { page, pageErrors, close } = await openDemo(browser(), vueDemo, 'http');
    expect(await page.title()).toBe('Lousho · Vue demo');
    expect(await page.locator('.brand-sub').textContent()).toBe('Vue demo');
    const http = page.getByRole('radio', { name: 'HTTP server' });
    const inPage = page.getByRole('radio', { name: 'In this page' });
    expect(await http.getAttribute('aria-checked')).toBe('true');

    await sendAndWaitForReply(page, 'echo over http');
    expect(await lastAssistantText(page)).toBe('over http');

    await inPage.click();
    expect(new URL(page.url()).searchParams.get('mode')).toBe('page');
    expect(await inPage.getAttribute('aria-checked')).toBe('true');
    await page.locator('[data-testid="model-notice"]').filter({ hasText: 'runs right here in your browser' }).waitFor();
    // A new, empty chat: the page's agent has its own session.
    await page.getByRole('region', { name: 'Getting started' }).waitFor();
    await sendAndWaitForReply(page, 'echo in the page');
    expect(await lastAssistantText(page)).toBe('in the page');
    await screenshot(vueDemo, page, 'mode-page');

    // Back to HTTP: the server's chat is still there (restored from sessionStorage).
    await http.click();
    expect(new URL(page.url()).searchParams.get('mode')).toBeNull();
    await page.locator('[data-testid="message"][data-role="assistant"] [data-testid="text"]', { hasText: 'over http' }).waitFor();
    expect(await page.locator('.messages').innerText()).not.toContain('in the page');
    expect(pageErrors).toEqual([]);
    await close();
  });
});
