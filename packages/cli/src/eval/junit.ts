import { create } from 'xmlbuilder2';
import type { CaseReport, EvalReport } from '@lousho/evals';
import { formatScore } from './format.js';

export interface JunitEval {
  file: string;
  report: EvalReport;
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** Why a case failed, as the failure's message (short) and body (every failing run and check). */
function failureOf(c: CaseReport): { kind: 'failure' | 'error'; message: string; body: string } | undefined {
  if (c.passed) return undefined;
  const errors = c.runs.filter((r) => r.error);
  const checks = Object.entries(c.checks).filter(([, k]) => k.passed < k.runs);
  const lines = [
    ...errors.map((r) => `run ${r.repetition + 1}: ${r.error!.code}: ${r.error!.message}`),
    ...checks.map(([name, k]) => `${name}: passed ${k.passed}/${k.runs}: ${k.reason}`),
    `passed ${c.runs.filter((r) => r.passed).length}/${c.runs.length} runs`,
  ];
  // A check that did not pass in a run that was scored: a failure; only runs that failed (the run or a scorer threw): an error.
  const checkFailed = c.runs.some((r) => !r.error && Object.values(r.checks).some((k) => !k.pass));
  const kind = !checkFailed && errors.length > 0 ? 'error' : 'failure';
  const message = kind === 'error' ? `${errors[0]!.error!.code}: ${errors[0]!.error!.message}` : `${checks.map(([name]) => name).join(', ')} failed`;
  return { kind, message, body: lines.join('\n') };
}

function scoresText(c: CaseReport): string {
  return Object.entries(c.scores)
    .map(([name, s]) => `${name}: ${formatScore(s.score)} (${s.reason})`)
    .join('\n');
}

/**
 * The results as JUnit XML, which CI systems (GitHub, GitLab, Jenkins) show as test results: a
 * `testsuite` per eval, a `testcase` per case (plus one for the threshold), `failure` for a check
 * that did not pass, `error` for a run or scorer that failed, scores in `system-out`. Characters XML
 * cannot hold are replaced, so any reply can be reported.
 */
export function junitXml(evals: readonly JunitEval[], durationMs: number): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '\uFFFD' });
  let tests = 0;
  let failures = 0;
  let errors = 0;
  const root = doc.ele('testsuites', { name: 'lousho eval' });
  for (const { file, report } of evals) {
    const suite = root.ele('testsuite', { name: report.name, file, timestamp: new Date().toISOString(), time: seconds(report.durationMs) });
    const props = suite.ele('properties');
    props.ele('property', { name: 'score', value: formatScore(report.score) });
    if (report.threshold !== undefined) props.ele('property', { name: 'threshold', value: String(report.threshold) });
    props.ele('property', { name: 'repeat', value: String(report.repeat) });
    let suiteFailures = 0;
    let suiteErrors = 0;
    let suiteTests = 0;
    for (const c of report.cases) {
      suiteTests++;
      const time = c.runs.reduce((t, r) => t + (r.output?.durationMs ?? 0), 0);
      const testcase = suite.ele('testcase', { name: c.name, classname: report.name, file, time: seconds(time) });
      const failed = failureOf(c);
      if (failed) {
        testcase.ele(failed.kind, { message: failed.message, type: failed.kind === 'error' ? 'error' : 'check' }).txt(failed.body);
        if (failed.kind === 'error') suiteErrors++;
        else suiteFailures++;
      }
      const out = scoresText(c);
      if (out) testcase.ele('system-out').txt(out);
    }
    if (report.threshold !== undefined) {
      suiteTests++;
      const testcase = suite.ele('testcase', { name: `mean score ≥ ${report.threshold}`, classname: report.name, file, time: '0.000' });
      if (report.score < report.threshold) {
        suiteFailures++;
        testcase.ele('failure', { message: `mean score ${formatScore(report.score)} < ${report.threshold}`, type: 'threshold' });
      }
    }
    suite.att({ tests: String(suiteTests), failures: String(suiteFailures), errors: String(suiteErrors), skipped: '0' });
    tests += suiteTests;
    failures += suiteFailures;
    errors += suiteErrors;
  }
  root.att({ tests: String(tests), failures: String(failures), errors: String(errors), time: seconds(durationMs) });
  return doc.end({ prettyPrint: true });
}
