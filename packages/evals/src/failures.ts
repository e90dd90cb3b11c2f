import type { EvalReport } from './types.js';
import { formatScore } from './scorers/text.js';

/** Why an eval failed, one line per failing case (its failing checks or its error) and for the threshold. */
export function failureLines(report: EvalReport): string[] {
  const lines: string[] = [];
  for (const c of report.cases) {
    if (c.passed) continue;
    const errors = c.runs.filter((r) => r.error).map((r) => `run ${r.repetition + 1}: ${r.error!.code}: ${r.error!.message}`);
    const checks = Object.entries(c.checks)
      .filter(([, k]) => k.passed < k.runs)
      .map(([name, k]) => `${name} passed ${k.passed}/${k.runs}: ${k.reason}`);
    lines.push(`case '${c.name}' (passed ${Math.round(c.passRate * c.runs.length)}/${c.runs.length} runs, needs ${Math.round(report.minPassRate * 100)}%): ${[...errors, ...checks].join('; ')}`);
  }
  if (report.threshold !== undefined && report.score < report.threshold) lines.push(`mean score ${formatScore(report.score)} is below the threshold ${report.threshold}`);
  return lines;
}
