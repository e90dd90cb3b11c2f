import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeViolations, seriousA11yViolations } from '../accessibility.js';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { lastAssistantText, openDemo, screenshot, sendMessage, toolCard, waitForStatus, waitForTakeOver } from '../page-driver.js';

const PROMPT = 'Research solar power in depth';

/** The researcher's card inside the lead's `task` card. */
const researcherCard = (page: Page): Locator => toolCard(page, 'task').locator('[data-testid="subagent"][data-subagent="researcher"]');

/** The researcher's own call of `tool`, inside its card. */
const nestedCard = (page: Page, tool: string, state?: string): Locator =>
  researcherCard(page).locator(`[data-testid="tool-card"][data-tool="${tool}"]${state === undefined ? '' : `[data-state="${state}"]`}`);

/** Waits until the researcher's save waits for a decision, the run paused on it. */
async function waitForChildApproval(page: Page): Promise<void> {
  await nestedCard(page, 'save_findings', 'awaiting-approval').waitFor({ timeout: 30_000 });
  await researcherCard(page).and(page.locator('[data-status="awaiting-approval"]')).waitFor();
  await waitForStatus(page, 'awaiting-approval');
}

/** Approves with the buttons in the researcher's card, then checks the lead's answer is built on the researcher's report. */
async function approveAndCheckAnswer(page: Page): Promise<void> {
  await nestedCard(page, 'save_findings').getByTestId('nested-approval').getByRole('button', { name: 'Approve' }).click();
  await waitForStatus(page, 'idle');
  await toolCard(page, 'task', 'done').waitFor();
  expect(await researcherCard(page).getAttribute('data-status')).toBe('done');
  expect(await nestedCard(page, 'save_findings').getAttribute('data-state')).toBe('done');
  const answer = await lastAssistantText(page);
  expect(answer).toContain('The researcher has finished. Its report:');
  expect(answer).toContain('Here is what I found about solar power:');
  expect(answer).toMatch(/I saved these findings to the research library \(entry lib_\w+\)/);
  // The researcher's own words stay in its card; none of them is the lead's text.
  const childText = await researcherCard(page).getByTestId('subagent-text').allTextContents();
  expect(childText.join('\n')).toContain("I'll save them to the research library");
  expect(answer).not.toContain("I'll save them to the research library");
}

/**
 * "Research solar power in depth": the lead delegates to its researcher sub-agent; the researcher's
 * card streams its work (text, its research with progress), its save waits for approval in the card,
 * and the lead answers from its report. Over HTTP, a reload during the child's approval restores the
 * card and the approval, and approving afterwards completes the run.
 */
export function describeSubagents(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('sub-agent (%s)', (mode) => {
    it('shows the researcher at work in the task card, takes the approval of its call there, and the lead answers from its report', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      await sendMessage(page, PROMPT);

      // Live: the researcher's card shows its research running, with progress, before anything is decided.
      const card = researcherCard(page);
      await card.waitFor();
      await nestedCard(page, 'research_topic', 'running').getByTestId('tool-progress').waitFor();
      expect(await card.getAttribute('data-status')).toBe('running');
      expect(await card.locator('summary').innerText()).toContain('researcher');
      // Styled as the demo's stylesheet says (a broken rule before it once left the card unstyled):
      // a flex summary, and the researcher's work indented behind an accent rule.
      const looks = await card.evaluate((details) => {
        const parts = details.querySelector('.subagent-parts');
        return { summary: getComputedStyle(details.querySelector('summary')!).display, rule: parts ? getComputedStyle(parts).borderLeftStyle : 'none' };
      });
      expect(looks).toEqual({ summary: 'flex', rule: 'solid' });
      await screenshot(target, page, `subagent-running-${mode}`);

      await waitForChildApproval(page);
      expect(await nestedCard(page, 'research_topic').getAttribute('data-state')).toBe('done');
      expect(await nestedCard(page, 'save_findings').getByTestId('nested-approval').innerText()).toContain('solar power');
      // Shown once, in the card: the dock has no second approval panel, it points at the card.
      expect(await page.getByTestId('approval-panel').count()).toBe(0);
      expect(await page.getByTestId('approval-pointer').innerText()).toContain('researcher sub-agent');
      const violations = await seriousA11yViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
      await screenshot(target, page, `subagent-approval-${mode}`);

      // Collapsible: closing the card hides the researcher's work, opening it shows it again.
      const summary = card.locator('summary');
      await summary.click();
      expect(await card.getByTestId('nested-approval').isVisible()).toBe(false);
      await summary.click();
      await card.getByTestId('nested-approval').waitFor();

      await approveAndCheckAnswer(page);
      await screenshot(target, page, `subagent-answered-${mode}`);
      expect(pageErrors).toEqual([]);
      await close();
    });
  });

  if (!target.modes.includes('http')) return;
  describe('sub-agent reload (http)', () => {
    it('restores the researcher card and its pending approval after a reload (dark scheme, axe-core clean); approving then completes the run', async () => {
      // In the dark colour scheme, so axe-core checks the card's contrast there too.
      const { page, pageErrors, close } = await openDemo(browser(), target, 'http', { colorScheme: 'dark' });
      await sendMessage(page, PROMPT);
      await waitForChildApproval(page);
      const before = await researcherCard(page).locator('[data-testid="tool-card"]').evaluateAll((cards) => cards.map((c) => `${(c as HTMLElement).dataset['tool']}:${(c as HTMLElement).dataset['state']}`));
      expect(before).toEqual(['research_topic:done', 'save_findings:awaiting-approval']);

      await page.reload();
      await waitForTakeOver(target, page);
      await waitForChildApproval(page);
      const after = await researcherCard(page).locator('[data-testid="tool-card"]').evaluateAll((cards) => cards.map((c) => `${(c as HTMLElement).dataset['tool']}:${(c as HTMLElement).dataset['state']}`));
      expect(after).toEqual(before);
      const violations = await seriousA11yViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
      await screenshot(target, page, 'subagent-reloaded-dark-http');

      await approveAndCheckAnswer(page);
      expect(await toolCard(page, 'task').count()).toBe(1);
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
}
