import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeViolations, seriousA11yViolations } from '../accessibility.js';
import type { Browser } from '../chromium.js';
import type { DemoMode, DemoTarget } from '../demo-target.js';
import { approvalPanel, openDemo, screenshot, sendAndWaitForReply, sendMessage, toolCard, waitForStatus } from '../page-driver.js';

const SCHEMES = ['light', 'dark'] as const;

/** Every chip of the suggestion rows is whole inside its row: none is cut off at the edge. */
async function chipsCutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    for (const row of document.querySelectorAll<HTMLElement>('.suggestions')) {
      const box = row.getBoundingClientRect();
      if (row.scrollWidth > row.clientWidth + 1) cut.push(`the row scrolls (${row.scrollWidth} > ${row.clientWidth})`);
      for (const chip of row.querySelectorAll<HTMLElement>('.chip')) {
        const r = chip.getBoundingClientRect();
        if (r.left < box.left - 1 || r.right > box.right + 1) cut.push(`"${chip.textContent?.trim()}" (${Math.round(r.left)}..${Math.round(r.right)} in ${Math.round(box.left)}..${Math.round(box.right)})`);
      }
    }
    return cut;
  });
}

/** The widths every state is checked at: a laptop and a phone. */
const WIDTHS = [1280, 390] as const;

/**
 * What does not fit the window: the page scrolls sideways, or a control of the header (the demo
 * links, the view and mode switches) is hidden or runs off the edge.
 */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) problems.push(`the page scrolls sideways (${root.scrollWidth} > ${root.clientWidth})`);
    const controls = document.querySelectorAll<HTMLElement>('.topbar a, .topbar button, .topbar [aria-current]');
    if (controls.length < 7) problems.push(`the header shows ${controls.length} links and switches, not 7`);
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      const name = control.textContent?.trim();
      if (!control.checkVisibility() || box.width === 0) problems.push(`"${name}" is hidden`);
      else if (box.left < 0 || box.right > root.clientWidth || control.scrollWidth > control.clientWidth + 1) problems.push(`"${name}" is cut off (${Math.round(box.left)}..${Math.round(box.right)} of ${root.clientWidth})`);
    }
    return problems;
  });
}

/** A check of one state: a screenshot, then axe-core (no serious or critical violation) and the layout. */
function checker(target: DemoTarget, page: Page, label: string) {
  return async (state: string): Promise<void> => {
    await screenshot(target, page, `a11y-${label}-${state}`);
    const violations = await seriousA11yViolations(page);
    expect(violations, `${state} (${label}):\n${describeViolations(violations)}`).toEqual([]);
    expect(await layoutProblems(page), `${state} (${label})`).toEqual([]);
  };
}

/** Opens the demo in `scheme` at `width` wide. */
async function openAt(browser: Browser, target: DemoTarget, mode: DemoMode, scheme: (typeof SCHEMES)[number], width: number) {
  const demo = await openDemo(browser, target, mode, { colorScheme: scheme });
  await demo.page.setViewportSize({ width, height: 860 });
  return demo;
}

/**
 * axe-core on every state the demo shows (welcome, a chat with a tool card and a Markdown reply, an
 * approval, an error, the triage flow waiting for review and once sent, a sub-agent's card waiting
 * for approval), in light and dark, on a wide and a phone-sized window: no serious or critical
 * WCAG 2.1 AA violation, contrast included; and nothing runs off the edge: no sideways scroll, the
 * header's links and switches all visible. Plus the suggestion chips: all of them visible, on a wide
 * and on a narrow window.
 */
export function describeAccessibility(target: DemoTarget, browser: () => Browser): void {
  const mode = target.modes.includes('http') ? 'http' : target.modes[0]!;
  const cases = SCHEMES.flatMap((scheme) => WIDTHS.map((width) => ({ scheme, width, label: `${scheme}-${width}` })));

  describe.each(cases)('accessibility ($scheme, $width px)', ({ scheme, width, label }) => {
    it('axe-core finds no serious violation on the welcome page, a chat, an approval and an error; nothing runs off the edge', async () => {
      const { page, pageErrors, close } = await openAt(browser(), target, mode, scheme, width);
      const check = checker(target, page, label);
      await page.getByTestId('model-notice').filter({ hasText: 'Offline demo model' }).waitFor();
      await check('welcome');

      await sendAndWaitForReply(page, "What's the weather in Paris?");
      await toolCard(page, 'get_weather', 'done').waitFor();
      await sendAndWaitForReply(page, 'echo **Markdown**: a [link](https://example.com/docs), `code` and\n\n- a list');
      await check('chat');

      await sendMessage(page, 'email bob@example.com about the launch');
      await approvalPanel(page).waitFor();
      await waitForStatus(page, 'awaiting-approval');
      await check('approval');

      await approvalPanel(page).getByLabel(/Note for the agent/).fill('Not yet, please');
      await approvalPanel(page).getByRole('button', { name: 'Reject' }).click();
      await waitForStatus(page, 'idle');
      await sendMessage(page, 'simulate error');
      await page.getByTestId('error').waitFor();
      await check('error');
      expect(pageErrors).toEqual([]);
      await close();
    });

    it('axe-core finds no serious violation in the triage flow, waiting for review and once sent', async () => {
      const { page, pageErrors, close } = await openAt(browser(), target, mode, scheme, width);
      const check = checker(target, page, label);
      await page.getByRole('radio', { name: 'Triage flow' }).click();
      await page.locator('#triage-input').fill('I was charged twice for order #4417, please refund me.');
      await page.getByTestId('triage-run').click();
      await approvalPanel(page).waitFor({ timeout: 30_000 });
      await waitForStatus(page, 'awaiting-approval');
      await check('triage-review');

      await approvalPanel(page).getByRole('button', { name: 'Approve' }).click();
      await page.getByTestId('triage-outcome').waitFor();
      await waitForStatus(page, 'idle');
      await check('triage-sent');
      expect(pageErrors).toEqual([]);
      await close();
    });

    it('axe-core finds no serious violation with a sub-agent at work and waiting for approval in its card', async () => {
      const { page, pageErrors, close } = await openAt(browser(), target, mode, scheme, width);
      const check = checker(target, page, label);
      await sendMessage(page, 'Research solar power in depth');
      const researcher = toolCard(page, 'task').locator('[data-testid="subagent"][data-subagent="researcher"]');
      await researcher.locator('[data-testid="tool-card"][data-tool="research_topic"] [data-testid="tool-progress"]').waitFor({ timeout: 30_000 });
      await check('subagent-running');
      await researcher.locator('[data-testid="nested-approval"]').waitFor({ timeout: 30_000 });
      await waitForStatus(page, 'awaiting-approval');
      await check('subagent-approval');
      expect(pageErrors).toEqual([]);
      await close();
    });
  });

  describe('suggestion chips', () => {
    it('are all visible, none cut off at the edge, on a wide and on a narrow window', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      expect(await chipsCutOff(page)).toEqual([]);
      await sendAndWaitForReply(page, 'echo hi');
      await page.locator('.suggestions.is-compact').waitFor();
      expect(await chipsCutOff(page)).toEqual([]);
      await page.setViewportSize({ width: 560, height: 860 });
      expect(await chipsCutOff(page)).toEqual([]);
      await screenshot(target, page, 'suggestions-narrow');
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
