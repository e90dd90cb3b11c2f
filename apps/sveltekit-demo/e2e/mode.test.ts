import { lastAssistantText, openDemo, sendAndWaitForReply, useBrowser, waitForStatus } from 'e2e/kit';
import { describe, expect, it } from 'vitest';
import { sveltekitDemo } from './support/sveltekit-demo.js';

const browser = useBrowser();

describe('switching where the agent runs', () => {
  it('keeps the mode in the URL; each mode has its own chat, and the HTTP one comes back from the server', async () => {
    const { page, pageErrors, close } = await openDemo(browser(), sveltekitDemo, 'http');
    await sendAndWaitForReply(page, 'echo over http');
    expect(await lastAssistantText(page)).toBe('over http');

    await page.getByRole('radio', { name: 'In this page' }).click();
    await page.waitForURL(/\?mode=page$/);
    await page.getByTestId('model-notice').filter({ hasText: 'It runs right here in your browser.' }).waitFor();
    await page.getByRole('heading', { name: 'Chat with the demo agent' }).waitFor();
    await sendAndWaitForReply(page, 'echo in the page');
    expect(await lastAssistantText(page)).toBe('in the page');

    await page.getByRole('radio', { name: 'HTTP server' }).click();
    await page.waitForURL((url) => url.search === '');
    await waitForStatus(page, 'idle');
    await page.locator('[data-testid="message"][data-role="user"]').filter({ hasText: 'echo over http' }).waitFor();
    expect(await lastAssistantText(page)).toBe('over http');
    expect(await page.getByTestId('message').count()).toBe(2);
    expect(pageErrors).toEqual([]);
    await close();
  });
});
