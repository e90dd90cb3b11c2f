import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openDemo, screenshot, sendMessage, waitForStatus, type Browser, type DemoMode } from './support/browser.js';

const FINAL_TOOL_STATES = ['done', 'error', 'rejected', 'cancelled'];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each<DemoMode>(['http', 'page'])('stop mid-stream (%s)', (mode) => {
  it('stops the research while its progress shows; every tool card (research and weather) ends in a final state', async () => {
    const { page, pageErrors, close } = await openDemo(browser, mode);
    await sendMessage(page, 'Research the history of the bicycle, and what is the weather in Paris?');

    const card = page.locator('[data-testid="tool-card"][data-tool="research_topic"]');
    await card.getByTestId('tool-progress').waitFor();
    expect(await card.getAttribute('data-state')).toBe('running');
    expect(await card.getByRole('progressbar').getAttribute('aria-valuenow')).toMatch(/^\d+$/);
    await screenshot(page, `research-progress-${mode}`);

    await page.getByRole('button', { name: 'Stop' }).click();
    await waitForStatus(page, 'aborted');
    expect(await page.getByTestId('status').textContent()).toContain('Stopped');
    await page.locator('[data-testid="tool-card"][data-tool="research_topic"][data-state="cancelled"]').waitFor();

    const states = await page.getByTestId('tool-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-state')));
    expect(states.length).toBe(2); // research and weather
    for (const state of states) expect(FINAL_TOOL_STATES).toContain(state);
    expect(await page.getByTestId('run-note').textContent()).toContain('You stopped this reply.');
    // The composer is usable again.
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
    await screenshot(page, `stopped-${mode}`);
    expect(pageErrors).toEqual([]);
    await close();
  });
});
