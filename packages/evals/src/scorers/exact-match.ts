import type { Scorer } from '../types.js';
import { canonicalJson, excerpt } from './text.js';

/** Options of `exactMatch()`: its name and how text is compared. */
export interface ExactMatchOptions {
  /** The column and check name (default `exactMatch`). */
  name?: string;
  /** Ignore leading and trailing whitespace of text (default true). */
  trim?: boolean;
  /** Compare text case-insensitively (default false). */
  ignoreCase?: boolean;
}

/**
 * 1 when the run's answer equals the case's `expected`, else 0. A string `expected` is compared
 * with the reply text; any other value with the run's structured output (`object` with an `output`
 * schema, a flow's outputs, else the reply parsed as JSON), key order aside. Every case needs `expected`.
 */
export function exactMatch(options: ExactMatchOptions = {}): Scorer {
  const trim = options.trim ?? true;
  const ignoreCase = options.ignoreCase ?? false;
  const normalize = (text: string) => {
    const t = trim ? text.trim() : text;
    return ignoreCase ? t.toLowerCase() : t;
  };
  return {
    kind: 'scorer',
    name: options.name ?? 'exactMatch',
    requiresExpected: true,
    score({ expected, output }) {
      if (typeof expected === 'string') {
        const ok = normalize(output.text) === normalize(expected);
        return { score: ok ? 1 : 0, reason: ok ? 'The reply equals the expected text.' : `Expected "${excerpt(expected)}", got "${excerpt(output.text)}".` };
      }
      const actual = output.object !== undefined ? output.object : parseJson(output.text);
      const ok = canonicalJson(actual) === canonicalJson(expected);
      return {
        score: ok ? 1 : 0,
        reason: ok ? 'The output equals the expected value.' : `Expected ${excerpt(canonicalJson(expected), 120)}, got ${actual === undefined ? `the text "${excerpt(output.text)}"` : excerpt(canonicalJson(actual), 120)}.`,
      };
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
