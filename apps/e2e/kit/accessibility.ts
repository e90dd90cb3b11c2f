import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, read once. */
let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** Where (selectors) and why (axe's summary), per element. */
  nodes: { target: string; summary: string }[];
}

/**
 * Runs axe-core (WCAG 2.1 A and AA rules) on the page as it is now and returns the serious and
 * critical violations. The script is evaluated through the browser's debugging protocol, so the
 * page's Content-Security-Policy (no inline scripts) does not stand in its way.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations as { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })) }));
}

/** The violations as readable lines, for a failing assertion's message. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations.map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `  ${n.target}: ${n.summary.replace(/\s+/g, ' ')}`).join('\n')}`).join('\n');
}
