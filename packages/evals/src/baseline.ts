import type { CaseReport, EvalReport } from './types.js';

/** Something that got worse than in the baseline. `case` and `scorer` are absent for the eval's own score or result. */
export interface Regression {
  eval: string;
  case?: string;
  /** The scorer, or check, that dropped; absent for a case's or an eval's own score or result. */
  scorer?: string;
  kind: 'score' | 'passed';
  before: number;
  after: number;
}

/** What `compareWithBaseline()` found: no regression means the run is at least as good as the baseline. */
export interface BaselineComparison {
  /** Each score, check or pass that got worse, with its value before and after. */
  regressions: Regression[];
  /** Evals and cases the baseline does not have (nothing to compare). */
  unmatched: string[];
}

/**
 * Compares reports with a saved run (`lousho eval --json` output, or the reports themselves): a
 * score that dropped by more than `tolerance`, a check whose pass rate dropped, and a case or eval
 * that passed and now fails are regressions. Matched by eval name, then case name, then scorer name.
 */
export function compareWithBaseline(current: readonly EvalReport[], baseline: { evals: readonly EvalReport[] } | readonly EvalReport[], tolerance = 0): BaselineComparison {
  const before = new Map((Array.isArray(baseline) ? baseline : (baseline as { evals: readonly EvalReport[] }).evals).map((e) => [e.name, e]));
  const regressions: Regression[] = [];
  const unmatched: string[] = [];
  const dropped = (b: number | undefined, a: number) => b !== undefined && a < b - tolerance - 1e-12;
  for (const ev of current) {
    const old = before.get(ev.name);
    if (!old) {
      unmatched.push(ev.name);
      continue;
    }
    if (old.passed && !ev.passed) regressions.push({ eval: ev.name, kind: 'passed', before: 1, after: 0 });
    if (dropped(old.score, ev.score)) regressions.push({ eval: ev.name, kind: 'score', before: old.score, after: ev.score });
    const oldCases = new Map<string, CaseReport>((old.cases ?? []).map((c: CaseReport) => [c.name, c]));
    for (const c of ev.cases) {
      const oc = oldCases.get(c.name);
      if (!oc) {
        unmatched.push(`${ev.name} › ${c.name}`);
        continue;
      }
      if (oc.passed && !c.passed) regressions.push({ eval: ev.name, case: c.name, kind: 'passed', before: 1, after: 0 });
      if (dropped(oc.score, c.score)) regressions.push({ eval: ev.name, case: c.name, kind: 'score', before: oc.score, after: c.score });
      for (const [name, s] of Object.entries(c.scores)) {
        const os = oc.scores?.[name];
        if (os && dropped(os.score, s.score)) regressions.push({ eval: ev.name, case: c.name, scorer: name, kind: 'score', before: os.score, after: s.score });
      }
      for (const [name, k] of Object.entries(c.checks)) {
        const ok = oc.checks?.[name];
        if (ok && ok.runs > 0 && k.runs > 0 && k.passed / k.runs < ok.passed / ok.runs - 1e-12) regressions.push({ eval: ev.name, case: c.name, scorer: name, kind: 'passed', before: ok.passed / ok.runs, after: k.passed / k.runs });
      }
    }
  }
  return { regressions, unmatched };
}
