import { evalError } from '../errors.js';
import type { Scorer } from '../types.js';
import { excerpt } from './text.js';

/** Options of `includes()`: its name and whether case matters. */
export interface IncludesOptions {
  /** The column and check name (default `includes`). */
  name?: string;
  /** Match case-insensitively (default false). */
  ignoreCase?: boolean;
}

/**
 * The share of `texts` found in the reply (1 when all are there). As a check (in `checks`), the run
 * passes only when every text is there.
 */
export function includes(texts: string | readonly string[], options: IncludesOptions = {}): Scorer {
  const list = typeof texts === 'string' ? [texts] : [...(texts ?? [])];
  if (list.length === 0 || list.some((t) => typeof t !== 'string' || t === '')) {
    throw evalError('LOUSHO_EVAL_INVALID', 'includes() needs a non-empty text or a list of non-empty texts.', "includes('refund') or includes(['refund', 'order #123'])");
  }
  const ignoreCase = options.ignoreCase ?? false;
  return {
    kind: 'scorer',
    name: options.name ?? 'includes',
    score({ output }) {
      const haystack = ignoreCase ? output.text.toLowerCase() : output.text;
      const missing = list.filter((t) => !haystack.includes(ignoreCase ? t.toLowerCase() : t));
      const found = list.length - missing.length;
      return {
        score: found / list.length,
        reason: missing.length === 0 ? `The reply includes ${list.map((t) => `"${excerpt(t, 40)}"`).join(', ')}.` : `The reply lacks ${missing.map((t) => `"${excerpt(t, 40)}"`).join(', ')} (${found} of ${list.length} found).`,
      };
    },
  };
}
