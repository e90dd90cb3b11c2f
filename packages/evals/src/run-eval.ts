import { SDKError } from '@lousho/core';
import { caseLabel } from './define-eval.js';
import { evalError } from './errors.js';
import { runTarget } from './target.js';
import type { CaseReport, CaseRunReport, Check, CheckResult, Eval, EvalCase, EvalReport, RunEvalOptions, ScoreContext, Scorer, ScoreResult, UsageTotals } from './types.js';
import { addUsage, emptyTotals, totalsOf } from './usage.js';

const DEFAULT_CONCURRENCY = 4;

/**
 * Runs every case of an eval (each `repeat` times, `concurrency` at once), scores and checks each
 * run, and reports. Never throws for what a run or a scorer does: a run that fails (a provider
 * error, a timeout) or a scorer that throws fails that run, with the error's code in the report.
 * Rejects only when `signal` stops it.
 */
export async function runEval(ev: Eval<any, any>, options: RunEvalOptions = {}): Promise<EvalReport> {
  const repeat = options.repeat ?? ev.repeat ?? 1;
  const concurrency = options.concurrency ?? ev.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(repeat) || repeat < 1) throw evalError('LOUSHO_EVAL_INVALID', `repeat must be a positive integer, got ${String(repeat)}.`, 'e.g. repeat: 3');
  if (!Number.isInteger(concurrency) || concurrency < 1) throw evalError('LOUSHO_EVAL_INVALID', `concurrency must be a positive integer, got ${String(concurrency)}.`, 'e.g. concurrency: 4');
  const signal = options.signal ?? new AbortController().signal;
  const started = performance.now();
  const jobs = ev.cases.flatMap((c, index) => Array.from({ length: repeat }, (_, repetition) => ({ c, index, repetition })));
  const runs: CaseRunReport[][] = ev.cases.map(() => []);
  options.onProgress?.({ type: 'eval.start', eval: ev.name, runs: jobs.length });

  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < jobs.length) {
      signal.throwIfAborted();
      const job = jobs[next++]!;
      const report = await runOnce(ev, job.c, job.repetition, signal);
      signal.throwIfAborted();
      runs[job.index]![job.repetition] = report;
      done++;
      options.onProgress?.({ type: 'run.done', eval: ev.name, case: caseLabel(job.c, job.index), repetition: job.repetition, passed: report.passed, done, runs: jobs.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));

  const minPassRate = ev.minPassRate ?? 1;
  const cases = ev.cases.map((c, index) => summarizeCase(ev, c, index, runs[index]!, minPassRate));
  const score = mean(cases.map((c) => c.score));
  const passed = cases.every((c) => c.passed) && (ev.threshold === undefined || score >= ev.threshold);
  const all = runs.flat();
  const report: EvalReport = {
    name: ev.name,
    ...(ev.description !== undefined ? { description: ev.description } : {}),
    passed,
    score,
    ...(ev.threshold !== undefined ? { threshold: ev.threshold } : {}),
    repeat,
    minPassRate,
    scorers: ev.scorers.map((s) => s.name),
    checks: ev.checks.map((c) => c.name),
    cases,
    usage: {
      runs: totalsOf(all.flatMap((r) => (r.output ? [r.output.usage] : []))),
      judges: all.reduce<UsageTotals>((t, r) => Object.values(r.scores).reduce((acc, s) => (s.usage ? addUsage(acc, s.usage) : acc), t), emptyTotals()),
    },
    durationMs: performance.now() - started,
  };
  options.onProgress?.({ type: 'eval.done', eval: ev.name, report });
  return report;
}

async function runOnce(ev: Eval<any, any>, c: EvalCase<any, any>, repetition: number, signal: AbortSignal): Promise<CaseRunReport> {
  let output;
  try {
    output = await runTarget(ev, c.input, signal, ev.timeoutMs);
  } catch (error) {
    signal.throwIfAborted();
    return { repetition, passed: false, error: errorOf(error), scores: {}, checks: {} };
  }
  const ctx: ScoreContext = { case: c, input: c.input, expected: c.expected, metadata: c.metadata ?? {}, output, signal };
  const summary = {
    text: output.text,
    toolCalls: output.toolCalls.map((t) => t.name),
    finishReason: output.finishReason,
    steps: output.steps,
    durationMs: output.durationMs,
    usage: { inputTokens: output.usage.inputTokens, outputTokens: output.usage.outputTokens, ...(output.usage.costUsd !== undefined ? { costUsd: output.usage.costUsd } : {}), estimated: output.usage.estimated, modelCalls: output.usage.modelCalls },
  };
  const scores: Record<string, ScoreResult> = {};
  const checks: Record<string, CheckResult> = {};
  try {
    // Scorers run side by side (a judge is a model call); scorer-checks too, checks after them.
    const scorerChecks = ev.checks.filter((k): k is Scorer => k.kind === 'scorer');
    const results = await Promise.all([...ev.scorers, ...scorerChecks].map((s) => scoreWith(s, ctx)));
    ev.scorers.forEach((s, i) => (scores[s.name] = results[i]!));
    scorerChecks.forEach((s, i) => {
      const r = results[ev.scorers.length + i]!;
      scores[s.name] = r;
      checks[s.name] = { pass: r.score === 1, reason: r.reason };
    });
    for (const check of ev.checks.filter((k): k is Check => k.kind === 'check')) checks[check.name] = await checkWith(check, ctx, scores);
  } catch (error) {
    signal.throwIfAborted();
    return { repetition, passed: false, error: errorOf(error), output: summary, scores, checks };
  }
  const passed = Object.values(checks).every((k) => k.pass);
  return { repetition, passed, output: summary, scores, checks };
}

async function scoreWith(scorer: Scorer, ctx: ScoreContext): Promise<ScoreResult> {
  const result = await scorer.score(ctx);
  if (!result || typeof result.score !== 'number' || !(result.score >= 0 && result.score <= 1) || typeof result.reason !== 'string') {
    throw evalError('LOUSHO_EVAL_SCORE_INVALID', `Scorer '${scorer.name}' returned ${JSON.stringify(result)?.slice(0, 200)}; a scorer returns { score: 0..1, reason }.`, 'Fix the scorer so its score is a number from 0 to 1 and its reason a string.');
  }
  return result;
}

async function checkWith(check: Check, ctx: ScoreContext, scores: Readonly<Record<string, ScoreResult>>): Promise<CheckResult> {
  const result = await check.check(ctx, scores);
  if (!result || typeof result.pass !== 'boolean' || typeof result.reason !== 'string') {
    throw evalError('LOUSHO_EVAL_SCORE_INVALID', `Check '${check.name}' returned ${JSON.stringify(result)?.slice(0, 200)}; a check returns { pass: boolean, reason }.`, 'Fix the check so it returns { pass, reason }.');
  }
  return result;
}

function summarizeCase(ev: Eval<any, any>, c: EvalCase<any, any>, index: number, runs: CaseRunReport[], minPassRate: number): CaseReport {
  const passRate = runs.filter((r) => r.passed).length / runs.length;
  const scores: CaseReport['scores'] = {};
  for (const s of ev.scorers) {
    // A run that could not be scored counts as 0 for every scorer.
    const each = runs.map((r) => r.scores[s.name]);
    const values = each.map((r) => r?.score ?? 0);
    const lowest = values.indexOf(Math.min(...values));
    scores[s.name] = { score: mean(values), reason: each[lowest]?.reason ?? runs[lowest]?.error?.message ?? 'Not scored.', runs: values };
  }
  const checks: CaseReport['checks'] = {};
  for (const k of ev.checks) {
    const each = runs.map((r) => r.checks[k.name]);
    const firstFail = each.findIndex((r) => !r?.pass);
    const shown = firstFail >= 0 ? firstFail : 0;
    checks[k.name] = { passed: each.filter((r) => r?.pass).length, runs: runs.length, reason: each[shown]?.reason ?? runs[shown]?.error?.message ?? 'Not checked.' };
  }
  const score = ev.scorers.length > 0 ? mean(Object.values(scores).map((s) => s.score)) : passRate;
  return {
    index,
    name: caseLabel(c, index),
    input: c.input,
    ...(c.expected !== undefined ? { expected: c.expected } : {}),
    ...(c.metadata !== undefined ? { metadata: c.metadata } : {}),
    passed: passRate >= minPassRate,
    score,
    passRate,
    scores,
    checks,
    runs,
  };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** An error as a report shows it: its code and message, never a stack. */
function errorOf(error: unknown): { code: string; message: string } {
  if (SDKError.is(error)) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: error.name || 'Error', message: error.message };
  return { code: 'Error', message: String(error) };
}
