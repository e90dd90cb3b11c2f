import Table from 'cli-table3';
import pc from 'picocolors';
import { formatUsage } from '@lousho/core';
import type { EvalReport, Regression } from '@lousho/evals';
import { formatDuration, formatScore } from './format.js';
import { terminalText as t } from './terminal-text.js';

type Colors = ReturnType<typeof pc.createColors>;

/** The regressions of one eval, by case and scorer (`''` for the case's own score and result). */
function regressionsOf(report: EvalReport, regressions: readonly Regression[]): Map<string, Regression> {
  const map = new Map<string, Regression>();
  for (const r of regressions) if (r.eval === report.name && r.case !== undefined) map.set(`${r.case}\u0000${r.scorer ?? ''}\u0000${r.kind}`, r);
  return map;
}

/**
 * An eval as a table: a row per case, a column per scorer (its mean score) and per check (passed
 * runs), and the case's result. Regressions against a baseline are marked `▼` with the old value.
 */
export function evalTable(report: EvalReport, options: { color: boolean; regressions?: readonly Regression[] }): string {
  const c: Colors = pc.createColors(options.color);
  const marks = regressionsOf(report, options.regressions ?? []);
  const mark = (caseName: string, scorer: string, kind: Regression['kind'], text: string) => {
    const r = marks.get(`${caseName}\u0000${scorer}\u0000${kind}`);
    if (!r) return text;
    return `${text} ${c.red(`▼ ${kind === 'passed' && scorer === '' ? 'passed before' : formatScore(r.before)}`)}`;
  };
  const table = new Table({
    head: ['case', ...report.scorers.map(t), ...report.checks.map((k) => `✓ ${t(k)}`), 'score', 'result'],
    style: { head: options.color ? ['cyan'] : [], border: options.color ? ['grey'] : [] },
    wordWrap: true,
  });
  for (const row of report.cases) {
    const scoreCell = (score: number) => (score >= 1 ? c.green(formatScore(score)) : score > 0 ? c.yellow(formatScore(score)) : c.red(formatScore(score)));
    const errored = row.runs.some((r) => r.error);
    table.push([
      t(row.name),
      ...report.scorers.map((s) => mark(row.name, s, 'score', scoreCell(row.scores[s]?.score ?? 0))),
      ...report.checks.map((k) => {
        const check = row.checks[k]!;
        const text = check.passed === check.runs ? c.green(check.runs > 1 ? `✓ ${check.passed}/${check.runs}` : '✓') : c.red(`✗ ${check.passed}/${check.runs}`);
        return mark(row.name, k, 'passed', text);
      }),
      mark(row.name, '', 'score', scoreCell(row.score)),
      mark(row.name, '', 'passed', row.passed ? c.green('pass') : errored ? c.red('ERROR') : c.red('FAIL')),
    ]);
  }
  return table.toString();
}

/** The lines under a table: why cases failed, the eval's result, usage and time. */
export function evalSummary(report: EvalReport, file: string, options: { color: boolean; regressions?: readonly Regression[] }): string {
  const c: Colors = pc.createColors(options.color);
  const lines: string[] = [];
  for (const row of report.cases) {
    for (const run of row.runs) {
      if (run.error) lines.push(c.red(`  ✗ ${t(row.name)}${row.runs.length > 1 ? ` (run ${run.repetition + 1})` : ''}: ${t(run.error.code)}: ${t(run.error.message)}`));
    }
    for (const [name, check] of Object.entries(row.checks)) {
      if (check.passed < check.runs) lines.push(c.red(`  ✗ ${t(row.name)} › ${t(name)}: ${t(check.reason)}`));
    }
  }
  const threshold = report.threshold !== undefined ? ` (threshold ${report.threshold}${report.score < report.threshold ? c.red(' not reached') : ''})` : '';
  const runs = report.cases.reduce((n, row) => n + row.runs.length, 0);
  const ownRegressions = (options.regressions ?? []).filter((r) => r.eval === report.name);
  lines.push(
    `${report.passed ? c.green('PASS') : c.red('FAIL')} ${c.bold(t(report.name))} (${t(file)}): score ${formatScore(report.score)}${threshold}, ${report.cases.filter((row) => row.passed).length}/${report.cases.length} cases passed, ${runs} runs in ${formatDuration(report.durationMs)}${ownRegressions.length > 0 ? c.red(`, ${ownRegressions.length} regression${ownRegressions.length > 1 ? 's' : ''}`) : ''}`,
  );
  lines.push(`  runs:   ${formatUsage(report.usage.runs)}`);
  if (report.usage.judges.modelCalls > 0) lines.push(`  judges: ${formatUsage(report.usage.judges)}`);
  return lines.join('\n');
}
