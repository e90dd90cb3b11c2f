import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastAssistantText, launchBrowser, openDemo, screenshot, sendMessage, waitForStatus, type Browser, type DemoMode } from './support/browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each<DemoMode>(['http', 'page'])('approval flow (%s)', (mode) => {
  it('shows the email for approval, sends it once approved, and the answer names the message id', async () => {
    const { page, pageErrors, close } = await openDemo(browser, mode);
    await page.getByTestId('model-notice').filter({ hasText: 'Offline demo model' }).waitFor();
    await screenshot(page, `welcome-${mode}`);
    await sendMessage(page, 'email bob@example.com about the launch');

    const panel = page.getByTestId('approval-panel');
    await panel.waitFor();
    await waitForStatus(page, 'awaiting-approval');
    const args = await panel.getByTestId('approval-args').textContent();
    expect(args).toContain('bob@example.com');
    expect(args).toContain('launch');
    const card = page.locator('[data-testid="tool-card"][data-tool="send_email"]');
    expect(await card.getAttribute('data-state')).toBe('awaiting-approval');
    await screenshot(page, `approval-panel-${mode}`);

    await panel.getByRole('button', { name: 'Approve' }).click();
    await waitForStatus(page, 'idle');
    await page.locator('[data-testid="tool-card"][data-tool="send_email"][data-state="done"]').waitFor();
    expect(await page.getByTestId('approval-panel').count()).toBe(0);

    const result = await card.getByTestId('tool-result').innerText();
    const messageId = /msg_\w+/.exec(result)?.[0];
    expect(messageId, `a message id in the tool result: ${result}`).toBeDefined();
    expect(await lastAssistantText(page)).toContain(messageId!);
    expect(await page.getByTestId('usage').textContent()).toMatch(/\d+ in \/ \d+ out tokens/);
    await screenshot(page, `approved-${mode}`);
    expect(pageErrors).toEqual([]);
    await close();
  });
});

describe('reject with a note (http)', () => {
  it('does not send the email, and the answer quotes the note', async () => {
    const { page, pageErrors, close } = await openDemo(browser, 'http');
    await sendMessage(page, 'email bob@example.com about the launch');
    const panel = page.getByTestId('approval-panel');
    await panel.waitFor();

    const note = 'Not before the press release is out';
    await panel.getByLabel(/Note for the agent/).fill(note);
    await panel.getByRole('button', { name: 'Reject' }).click();

    await waitForStatus(page, 'idle');
    const card = page.locator('[data-testid="tool-card"][data-tool="send_email"]');
    await page.locator('[data-testid="tool-card"][data-tool="send_email"][data-state="rejected"]').waitFor();
    expect(await card.getByTestId('tool-decision').textContent()).toContain(note);
    const answer = await lastAssistantText(page);
    expect(answer).toContain(`"${note}"`);
    expect(answer).not.toMatch(/msg_\w+/);
    await screenshot(page, 'rejected-http');
    expect(pageErrors).toEqual([]);
    await close();
  });
});
