import { evalError } from '../errors.js';
import type { Check } from '../types.js';
import { formatScore } from './text.js';

/** A check: the run passes when the scorer named `scorer` gave it at least `value`. */
export function atLeast(scorer: string, value: number): Check {
  if (typeof scorer !== 'string' || scorer === '') throw evalError('LOUSHO_EVAL_INVALID', 'atLeast() needs the name of a scorer.', "atLeast('llmJudge', 0.7)");
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw evalError('LOUSHO_EVAL_INVALID', `atLeast('${scorer}', ${String(value)}): the value must be from 0 to 1.`, "atLeast('llmJudge', 0.7)");
  return {
    kind: 'check',
    name: `${scorer} ≥ ${value}`,
    reads: [scorer],
    check(_ctx, scores) {
      const got = scores[scorer];
      if (!got) return { pass: false, reason: `'${scorer}' has no score for this run.` };
      return got.score >= value
        ? { pass: true, reason: `${scorer} scored ${formatScore(got.score)} ≥ ${value}.` }
        : { pass: false, reason: `${scorer} scored ${formatScore(got.score)} < ${value}: ${got.reason}` };
    },
  };
}
