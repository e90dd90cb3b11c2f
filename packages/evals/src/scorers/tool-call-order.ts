import { evalError } from '../errors.js';
import type { Scorer } from '../types.js';

/** Options of `toolCallOrder()`: its name and whether extra calls cost score. */
export interface ToolCallOrderOptions {
  /** The column and check name (default `toolCallOrder`). */
  name?: string;
  /** Calls beyond the expected ones cost nothing (default false: each one lowers the score). */
  allowExtra?: boolean;
}

/**
 * How closely the tools the run called, in the model's order, follow `expected` (a list of tool
 * names). Partial credit: with L the length of the longest common subsequence of the two lists
 * (the expected calls made in the expected order, gaps allowed),
 *
 *   score = L / max(expected.length, actual.length)      (allowExtra: L / expected.length)
 *
 * So a missing call, a call out of order and (unless `allowExtra`) an extra call each cost a share.
 * Expecting no calls: 1 when none were made, else 0.
 */
export function toolCallOrder(expected: readonly string[], options: ToolCallOrderOptions = {}): Scorer {
  if (!Array.isArray(expected) || expected.some((n) => typeof n !== 'string' || n === '')) {
    throw evalError('LOUSHO_EVAL_INVALID', 'toolCallOrder() needs a list of tool names.', "toolCallOrder(['lookup_order', 'refund'])");
  }
  const want = [...expected];
  return {
    kind: 'scorer',
    name: options.name ?? 'toolCallOrder',
    score({ output }) {
      const got = output.toolCalls.map((c) => c.name);
      return { ...orderScore(want, got, options.allowExtra ?? false) };
    },
  };
}

/** The score and reason of `toolCallOrder` (exported for its property tests). */
export function orderScore(want: readonly string[], got: readonly string[], allowExtra: boolean): { score: number; reason: string } {
  const shown = `expected [${want.join(', ')}], got [${got.join(', ')}]`;
  if (want.length === 0) return got.length === 0 || allowExtra ? { score: 1, reason: 'No tool calls expected, none made.' } : { score: 0, reason: `No tool calls expected, got [${got.join(', ')}].` };
  const common = lcsLength(want, got);
  const denominator = allowExtra ? want.length : Math.max(want.length, got.length);
  const score = common / denominator;
  if (score === 1) return { score, reason: `Called [${got.join(', ')}] as expected.` };
  const missing = want.length - common;
  const extra = got.length - common;
  const parts = [missing > 0 ? `${missing} expected call${missing > 1 ? 's' : ''} missing or out of order` : '', !allowExtra && extra > 0 ? `${extra} extra` : ''].filter(Boolean);
  return { score, reason: `${common} of ${want.length} in order (${parts.join(', ')}): ${shown}.` };
}

function lcsLength(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    previous = row;
  }
  return previous[b.length]!;
}
