import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appUrl,
  collectErrors,
  lastAssistantText,
  launchBrowser,
  newContext,
  openDemo,
  screenshot,
  sendAndWaitForReply,
  sendMessage,
  serverHtml,
  sessionCookie,
  waitForHydration,
  waitForStatus,
  type Browser,
} from './support/browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A chat with a weather answer, then an email waiting for approval. */
async function chatWaitingForApproval() {
  const demo = await openDemo(browser, 'http');
  await sendAndWaitForReply(demo.page, "What's the weather in Paris?");
  await demo.page.locator('[data-testid="tool-card"][data-tool="get_weather"][data-state="done"]').waitFor();
  const weatherAnswer = await lastAssistantText(demo.page);
  expect(weatherAnswer).toContain('Paris');
  await sendMessage(demo.page, 'email bob@example.com about the launch');
  await demo.page.getByTestId('approval-panel').waitFor();
  await waitForStatus(demo.page, 'awaiting-approval');
  const sessionId = await sessionCookie(demo.context);
  expect(sessionId, 'the session cookie the page set').toEqual(expect.any(String));
  return { ...demo, weatherAnswer, sessionId: sessionId!, messageCount: await demo.page.getByTestId('message').count() };
}

describe('reload (http)', () => {
  it('restores the transcript and the pending approval, and approving after the reload completes the run', async () => {
    const { page, pageErrors, close, weatherAnswer, messageCount } = await chatWaitingForApproval();

    await page.reload();
    await waitForHydration(page);
    await page.getByTestId('approval-panel').waitFor();
    await waitForStatus(page, 'awaiting-approval');
    // The whole transcript is back: both user messages, the weather answer, the email card.
    expect(await page.getByTestId('message').count()).toBe(messageCount);
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
    await close();
  });

  it('the server-rendered first paint already shows the transcript and the pending approval (no JavaScript)', async () => {
    const { close, weatherAnswer, sessionId, messageCount } = await chatWaitingForApproval();

    // The HTML of the response itself, before any script runs.
    const html = await serverHtml(sessionId);
    expect(html).toContain('data-testid="approval-panel"');
    expect(html).toContain('data-status="awaiting-approval"');
    expect(html).toContain("What's the weather in Paris?");
    expect(html).toContain('email bob@example.com about the launch');
    expect(html).toContain('bob@example.com');
    expect(html.match(/data-testid="message"/g)).toHaveLength(messageCount);

    // The same page in a browser with JavaScript turned off, holding only the session cookie.
    const context = await newContext(browser, { javaScriptEnabled: false });
    await context.addCookies([{ name: 'lousho_session', value: sessionId, url: appUrl() }]);
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(appUrl());
    expect(await page.locator('.app').getAttribute('data-hydrated')).toBe('false');
    expect(await page.getByTestId('message').count()).toBe(messageCount);
    const transcript = await page.locator('.messages').innerText();
    expect(transcript).toContain("What's the weather in Paris?");
    expect(transcript).toContain(weatherAnswer.split('\n').pop()!);
    expect(await page.getByTestId('approval-panel').isVisible()).toBe(true);
    expect(await page.getByTestId('approval-args').textContent()).toContain('bob@example.com');
    expect(await page.getByTestId('status').getAttribute('data-status')).toBe('awaiting-approval');
    expect(await page.locator('[data-testid="tool-card"][data-tool="send_email"]').getAttribute('data-state')).toBe('awaiting-approval');
    await screenshot(page, 'first-paint-no-javascript-http');
    expect(errors).toEqual([]);
    await context.close();
    await close();
  });

  it('a reload in the middle of a turn shows it as far as it got, then follows it to its end', async () => {
    const { page, pageErrors, close } = await openDemo(browser, 'http');
    await sendMessage(page, 'Research the history of the bicycle');
    const card = page.locator('[data-testid="tool-card"][data-tool="research_topic"]');
    await card.getByTestId('tool-progress').waitFor();

    await page.reload({ waitUntil: 'commit' });
    // Rendered by the server as it was: the research running, with its progress.
    await page.locator('[data-testid="tool-card"][data-tool="research_topic"][data-state="running"]').waitFor();
    await waitForHydration(page);
    await screenshot(page, 'reload-mid-turn-http');
    // After hydration the store follows the turn (no new run), to the end.
    await page.locator('[data-testid="tool-card"][data-tool="research_topic"][data-state="done"]').waitFor({ timeout: 45_000 });
    await waitForStatus(page, 'idle', 45_000);
    expect(await page.locator('[data-testid="message"][data-role="user"]').count()).toBe(1);
    expect(await lastAssistantText(page)).toContain('bicycle');
    expect(pageErrors).toEqual([]);
    await close();
  });
});
