import { chatAwaitingApproval, collectErrors, lastAssistantText, newContext, openDemo, screenshot, sendMessage, toolCard, useBrowser, waitForStatus } from 'e2e/kit';
import { describe, expect, it } from 'vitest';
import { appUrl, sessionCookie, serverHtml, sveltekitDemo, waitForHydration } from './support/sveltekit-demo.js';

// The reload the demos share (transcript and approval restored, then approved) is in
// shared-scenarios.test.ts; these are what server rendering adds.

const browser = useBrowser();

/** A chat with a weather answer, then an email waiting for approval; and the visitor's session cookie. */
async function chatWaitingForApproval() {
  const demo = await openDemo(browser(), sveltekitDemo, 'http');
  const chat = await chatAwaitingApproval(demo.page);
  const sessionId = await sessionCookie(demo.context);
  expect(sessionId, 'the session cookie the page set').toEqual(expect.any(String));
  return { ...demo, ...chat, sessionId: sessionId! };
}

describe('reload (http)', () => {
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
    const context = await newContext(browser(), { javaScriptEnabled: false });
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
    expect(await toolCard(page, 'send_email').getAttribute('data-state')).toBe('awaiting-approval');
    await screenshot(sveltekitDemo, page, 'first-paint-no-javascript-http');
    expect(errors).toEqual([]);
    await context.close();
    await close();
  });

  it('a reload in the middle of a turn shows it as far as it got, then follows it to its end', async () => {
    const { page, pageErrors, close } = await openDemo(browser(), sveltekitDemo, 'http');
    await sendMessage(page, 'Research the history of the bicycle');
    await toolCard(page, 'research_topic').getByTestId('tool-progress').waitFor();

    await page.reload({ waitUntil: 'commit' });
    // Rendered by the server as it was: the research running, with its progress.
    await toolCard(page, 'research_topic', 'running').waitFor();
    await waitForHydration(page);
    await screenshot(sveltekitDemo, page, 'reload-mid-turn-http');
    // After hydration the store follows the turn (no new run), to the end.
    await toolCard(page, 'research_topic', 'done').waitFor({ timeout: 45_000 });
    await waitForStatus(page, 'idle', 45_000);
    expect(await page.locator('[data-testid="message"][data-role="user"]').count()).toBe(1);
    expect(await lastAssistantText(page)).toContain('bicycle');
    expect(pageErrors).toEqual([]);
    await close();
  });
});
