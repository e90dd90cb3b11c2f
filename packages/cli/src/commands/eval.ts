import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { compareWithBaseline, runEval, type EvalReport } from '@lousho/evals';
import { findEvalFiles, loadEvalFile, shown, type LoadedEval } from '../eval/load.js';
import { barProgress, lineProgress, type Progress } from '../eval/progress.js';
import { junitXml } from '../eval/junit.js';
import { readBaseline, type EvalRunFile } from '../eval/report-file.js';
import { evalSummary, evalTable } from '../eval/table.js';
import { terminalText } from '../eval/terminal-text.js';
import type { CliIo } from '../io.js';

interface EvalFlags {
  json?: string;
  junit?: string;
  concurrency?: number;
  repeat?: number;
  baseline?: string;
  tolerance: number;
  failOnRegression?: boolean;
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer.');
  return n;
}

function fraction(value: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError('expected a number from 0 to 1.');
  return n;
}

/** `lousho eval [files...]`: runs eval files, shows a table per eval, writes JSON / JUnit, exits 1 when a check fails. */
export function evalCommand(io: CliIo): Command {
  return new Command('eval')
    .description('Run agent evals: modules whose default export is defineEval(...) or an array of them')
    .argument('[files...]', 'eval files or directories (default: every *.eval.ts / *.eval.js under the current directory)')
    .option('--json <file>', 'write the full results as JSON (a later --baseline reads it)')
    .option('--junit <file>', 'write the results as JUnit XML for CI')
    .option('--concurrency <n>', 'runs going on at once, per eval (default: the eval’s, else 4)', positiveInteger)
    .option('--repeat <n>', 'runs of each case, scores averaged (default: the eval’s, else 1)', positiveInteger)
    .option('--baseline <file>', 'compare with an earlier --json file and mark what got worse')
    .option('--tolerance <n>', 'a score may drop this much before it counts as a regression', fraction, 0)
    .option('--fail-on-regression', 'exit 1 when the baseline comparison finds a regression')
    .addHelpText('after', '\nExit code: 0 when every eval passed, 1 when a check failed, a run failed, a threshold was not reached (or, with --fail-on-regression, something regressed).\n')
    .action(async (files: string[], flags: EvalFlags) => {
      const cwd = io.cwd;
      const baseline = flags.baseline ? readBaseline(resolve(cwd, flags.baseline)) : undefined;
      const loaded: LoadedEval[] = [];
      for (const file of findEvalFiles(cwd, files)) loaded.push(...(await loadEvalFile(file, cwd)));

      const repeatOf = (l: LoadedEval) => flags.repeat ?? l.eval.repeat ?? 1;
      const totalRuns = loaded.reduce((n, l) => n + l.eval.cases.length * repeatOf(l), 0);
      const progress: Progress = io.stderrStream?.isTTY ? barProgress(io.stderrStream, totalRuns) : lineProgress(io.stderr);
      const startedAt = new Date();
      const started = performance.now();
      const results: { file: string; report: EvalReport }[] = [];
      try {
        for (const l of loaded) {
          const file = shown(l.file, cwd);
          const report = await runEval(l.eval, {
            ...(flags.concurrency ? { concurrency: flags.concurrency } : {}),
            ...(flags.repeat ? { repeat: flags.repeat } : {}),
            onProgress: (event) => progress.event(file, event),
          });
          results.push({ file, report });
        }
      } finally {
        progress.stop();
      }
      const durationMs = performance.now() - started;

      const comparison = baseline ? compareWithBaseline(results.map((r) => r.report), baseline, flags.tolerance) : undefined;
      const regressions = comparison?.regressions ?? [];
      const color = io.color ?? false;
      for (const { file, report } of results) {
        io.stdout(`\n${evalTable(report, { color, regressions })}\n${evalSummary(report, file, { color, regressions })}\n`);
      }
      const failed = results.filter((r) => !r.report.passed);
      if (comparison) {
        io.stdout(`\nBaseline ${flags.baseline}: ${regressions.length === 0 ? 'no regressions' : `${regressions.length} regression${regressions.length > 1 ? 's' : ''}`}\n`);
        for (const r of regressions) {
          const where = terminalText([r.eval, r.case, r.scorer].filter(Boolean).join(' › '));
          io.stdout(`  ▼ ${where}: ${r.kind === 'passed' && r.scorer === undefined ? 'passed before, fails now' : `${r.before.toFixed(2)} → ${r.after.toFixed(2)}`}\n`);
        }
      }
      io.stdout(`\n${results.length} eval${results.length === 1 ? '' : 's'}: ${results.length - failed.length} passed, ${failed.length} failed\n`);

      const passed = failed.length === 0;
      if (flags.json) {
        const out: EvalRunFile = {
          version: 1,
          startedAt: startedAt.toISOString(),
          durationMs,
          passed,
          evals: results.map(({ file, report }) => ({ file, ...report })),
          ...(comparison ? { regressions } : {}),
        };
        write(resolve(cwd, flags.json), `${JSON.stringify(out, null, 2)}\n`);
      }
      if (flags.junit) write(resolve(cwd, flags.junit), junitXml(results, durationMs));
      // Exit code 1 without an error message: the tables above say what failed.
      if (!passed || (flags.failOnRegression === true && regressions.length > 0)) throw new CommanderError(1, 'lousho.eval.failed', '');
    });
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
