import { readFileSync } from 'node:fs';
import { SDKError } from '@lousho/core';
import type { EvalReport, Regression } from '@lousho/evals';

/** What `--json <file>` writes (and `--baseline <file>` reads back). */
export interface EvalRunFile {
  version: 1;
  startedAt: string;
  durationMs: number;
  passed: boolean;
  evals: (EvalReport & { file: string })[];
  /** With `--baseline`: what got worse. */
  regressions?: Regression[];
}

export function readBaseline(path: string): { evals: EvalReport[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new SDKError('LOUSHO_EVAL_INVALID', `The baseline ${path} could not be read: ${error instanceof Error ? error.message : String(error)}`, {
      hint: 'Pass a file an earlier `lousho eval --json <file>` wrote.',
    });
  }
  const evals = (parsed as { evals?: unknown })?.evals;
  if (!Array.isArray(evals) || !evals.every((e) => typeof e?.name === 'string' && Array.isArray(e?.cases))) {
    throw new SDKError('LOUSHO_EVAL_INVALID', `The baseline ${path} is not a lousho eval report.`, { hint: 'Pass a file an earlier `lousho eval --json <file>` wrote.' });
  }
  return { evals: evals as EvalReport[] };
}
