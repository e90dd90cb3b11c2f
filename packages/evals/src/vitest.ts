// `@lousho/evals/vitest` (also `@lousho/build-ai-agent/vitest`): evals as vitest tests.
import { beforeAll, describe, expect, it } from 'vitest';
import { failureLines } from './failures.js';
import { runEval } from './run-eval.js';
import type { Eval, EvalReport, RunEvalOptions } from './types.js';

/** Options of `describeEval()`: the runner's `concurrency` and `repeat` (overriding the eval's), and a timeout. */
export interface DescribeEvalOptions extends Pick<RunEvalOptions, 'concurrency' | 'repeat'> {
  /** How long the whole eval may run, in ms (default 5 minutes: model calls are slow). */
  timeout?: number;
}

/**
 * A vitest suite for an eval: the eval runs once (cases side by side, up to its concurrency), then
 * each case is a test that fails with its failing checks or error, and the threshold (if any) is one more.
 */
export function describeEval(ev: Eval<any, any>, options: DescribeEvalOptions = {}): void {
  describe(ev.name, () => {
    let report: EvalReport | undefined;
    beforeAll(async () => {
      report = await runEval(ev, { ...(options.concurrency ? { concurrency: options.concurrency } : {}), ...(options.repeat ? { repeat: options.repeat } : {}) });
    }, options.timeout ?? 300_000);
    ev.cases.forEach((_c, index) => {
      const name = report?.cases[index]?.name ?? nameOf(ev, index);
      it(name, () => {
        const c = report!.cases[index]!;
        if (!c.passed) throw new Error(failureLines({ ...report!, cases: [c], threshold: undefined } as EvalReport).join('\n'));
      });
    });
    if (ev.threshold !== undefined) {
      it(`mean score ≥ ${ev.threshold}`, () => {
        expect(report!.score, `mean score of '${ev.name}'`).toBeGreaterThanOrEqual(ev.threshold!);
      });
    }
  });
}

function nameOf(ev: Eval<any, any>, index: number): string {
  const c = ev.cases[index]!;
  if (typeof c.name === 'string' && c.name.trim()) return c.name;
  return typeof c.input === 'string' && c.input.trim() ? c.input.trim().replace(/\s+/g, ' ').slice(0, 48) : `case ${index + 1}`;
}

interface EvalMatchers<R = unknown> {
  /** The eval report (of `runEval`) passed: every case's checks, and the threshold. */
  toPass(): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends EvalMatchers<T> {}
}

expect.extend({
  toPass(received: EvalReport | readonly EvalReport[]) {
    const reports = Array.isArray(received) ? (received as readonly EvalReport[]) : [received as EvalReport];
    const bad = reports.filter((r) => !r || typeof r !== 'object' || !Array.isArray(r.cases));
    if (bad.length > 0) return { pass: false, message: () => 'toPass() expects what runEval() resolves with (an eval report), or an array of them.' };
    const failing = reports.filter((r) => !r.passed);
    return {
      pass: failing.length === 0,
      message: () =>
        failing.length === 0
          ? `expected ${reports.map((r) => `'${r.name}'`).join(', ')} to fail, but it passed`
          : failing.map((r) => `eval '${r.name}' failed:\n${failureLines(r).map((l) => `  - ${l}`).join('\n')}`).join('\n'),
    };
  },
});

export { runEval };
