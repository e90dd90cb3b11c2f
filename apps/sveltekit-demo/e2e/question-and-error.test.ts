import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastAssistantText, launchBrowser, openDemo, screenshot, sendAndWaitForReply, sendMessage, waitForStatus, type Browser, type DemoMode } from './support/browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each<DemoMode>(['http', 'page'])('question (%s)', (mode) => {
  it('asks, takes the typed answer, and the reply uses it', async () => {
    const { page, pageErrors, close } = await openDemo(browser, mode);
    await sendMessage(page, 'Help me plan a trip');
    const form = page.getByTestId('question-form');
    await form.waitFor();
    await waitForStatus(page, 'awaiting-approval');
    expect((await form.getByTestId('question-text').textContent())?.trim()).not.toBe('');
    await screenshot(page, `question-${mode}`);

    await form.getByLabel('Your answer').fill('Lisbon');
    await form.getByRole('button', { name: 'Answer' }).click();
    await waitForStatus(page, 'idle');
    expect(await page.getByTestId('question-form').count()).toBe(0);
    await page.locator('[data-testid="tool-card"][data-tool="ask_question"][data-state="done"]').waitFor();
    expect(await lastAssistantText(page)).toContain('Lisbon');
    expect(pageErrors).toEqual([]);
    await close();
  });
});

describe.each<DemoMode>(['http', 'page'])('error (%s)', (mode) => {
  it('shows the simulated failure plainly; dismiss hides it, the chat goes on; retry sends again', async () => {
    const { page, close } = await openDemo(browser, mode);
    await sendMessage(page, 'simulate error');
    await waitForStatus(page, 'error');
    const banner = page.getByRole('alert');
    await banner.waitFor();
    expect(await banner.getByTestId('error-message').textContent()).toBe('The demo model failed on purpose (you asked it to).');
    expect(await banner.textContent()).toContain('LOUSHO_PROVIDER_ERROR');
    expect(await banner.textContent()).not.toMatch(/\bat .+:\d+:\d+/); // no stack trace
    await screenshot(page, `error-${mode}`);

    await banner.getByRole('button', { name: 'Retry' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"][data-role="user"]').length === 2);
    await waitForStatus(page, 'error');
    expect(await page.locator('[data-testid="message"][data-role="user"]').last().textContent()).toBe('simulate error');

    await page.getByRole('alert').getByRole('button', { name: 'Dismiss' }).click();
    expect(await page.getByRole('alert').count()).toBe(0);
    await sendAndWaitForReply(page, 'echo still here');
    expect(await lastAssistantText(page)).toBe('still here');
    await close();
  });
});
