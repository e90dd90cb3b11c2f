import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, lastAssistantText, openDemo, screenshot, sendAndWaitForReply, sendMessage, waitForStatus, type Browser } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('reload (http)', () => {
  it('restores the transcript and the pending approval, and approving after the reload completes the run', async () => {
    const { page, pageErrors } = await openDemo(browser, 'http');
    await sendAndWaitForReply(page, "What's the weather in Paris?");
    await page.locator('[data-testid="tool-card"][data-tool="get_weather"][data-state="done"]').waitFor();
    const weatherAnswer = await lastAssistantText(page);
    expect(weatherAnswer).toContain('Paris');

    await sendMessage(page, 'email bob@example.com about the launch');
    await page.getByTestId('approval-panel').waitFor();
    const before = await page.getByTestId('message').count();

    await page.reload();
    await page.getByTestId('approval-panel').waitFor();
    await waitForStatus(page, 'awaiting-approval');
    // The whole transcript is back: both user messages, the weather answer, the email card.
    expect(await page.getByTestId('message').count()).toBe(before);
    const transcript = await page.locator('.messages').innerText();
    expect(transcript).toContain("What's the weather in Paris?");
    expect(transcript).toContain('email bob@example.com about the launch');
    expect(transcript).toContain(weatherAnswer.split('\n').pop()!);
    expect(await page.getByTestId('approval-args').textContent()).toContain('bob@example.com');
    await screenshot(page, 'reload-restored-http');

    await page.getByTestId('approval-panel').getByRole('button', { name: 'Approve' }).click();
    await waitForStatus(page, 'idle');
    await page.locator('[data-testid="tool-card"][data-tool="send_email"][data-state="done"]').waitFor();
    expect(await lastAssistantText(page)).toMatch(/Message id: msg_\w+/);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
