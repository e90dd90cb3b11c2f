import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLinearRegExp, ERROR_CODES } from '../../src/index.js';

/*
 * Untrusted patterns run on RE2: the catastrophic-backtracking classics answer (a backtracking
 * engine would take hours on them at 40 characters), patterns that need backtracking are refused
 * with a stable code, and on everything else the verdict is JavaScript's.
 */
describe('compileLinearRegExp', () => {
  it('answers the backtracking classics on 40 characters (a backtracking engine takes hours)', () => {
    for (const pattern of ['^(a+)+$', '^(a|a)*$', '^(a|aa)+$', '(x+x+)+y', '^(\\w+\\s?)*$']) {
      const regex = compileLinearRegExp(pattern);
      expect(regex.test(`${'a'.repeat(40)}!`)).toBe(false);
      regex.dispose();
    }
    const nested = compileLinearRegExp('^(a+)+$');
    expect(nested.test('a'.repeat(40))).toBe(true);
    expect(nested.test('a'.repeat(100_000))).toBe(true);
  });

  it('refuses backreferences and lookaround with LOUSHO_REGEX_UNSUPPORTED, naming the pattern', () => {
    for (const pattern of ['(a)\\1', '(?=a)b', '(?!a)b', '(?<=a)b', '(?<!a)b', '(?<n>a)\\k<n>']) {
      expect(() => compileLinearRegExp(pattern, { who: 'The grep pattern' }), pattern).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_REGEX_UNSUPPORTED, message: expect.stringContaining('The grep pattern') }));
    }
  });

  it('refuses a pattern that is no regular expression with LOUSHO_INVALID_INPUT', () => {
    expect(() => compileLinearRegExp('([a-z')).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_INVALID_INPUT }));
  });

  it('ignoreCase, Unicode classes and lengths behave as in JavaScript', () => {
    expect(compileLinearRegExp('^abc$', { ignoreCase: true }).test('ABC')).toBe(true);
    expect(compileLinearRegExp('^\\p{L}+$').test('héllo')).toBe(true);
    expect(compileLinearRegExp('^.{2}$').test('😀😀')).toBe(true);
  });

  it('a disposed pattern is not used again', () => {
    const regex = compileLinearRegExp('a');
    regex.dispose();
    regex.dispose();
    expect(() => regex.test('a')).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_INTERNAL }));
  });

  it('gives JavaScript\'s verdict on patterns built from a safe alphabet', () => {
    const atom = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\d', '\\w', '\\s', '(a|b)', '(ab)', 'é');
    const quantifier = fc.constantFrom('', '*', '+', '?', '{1,2}', '*?');
    const pattern = fc.array(fc.tuple(atom, quantifier).map(([a, q]) => a + q), { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));
    const anchored = fc.tuple(fc.boolean(), pattern, fc.boolean()).map(([start, body, end]) => `${start ? '^' : ''}${body}${end ? '$' : ''}`);
    fc.assert(
      fc.property(anchored, fc.string({ unit: fc.constantFrom('a', 'b', '1', ' ', 'é', 'x'), maxLength: 8 }), (source, text) => {
        const regex = compileLinearRegExp(source);
        try {
          expect(regex.test(text)).toBe(new RegExp(source, 'u').test(text));
        } finally {
          regex.dispose();
        }
      }),
      { numRuns: 500 },
    );
  });
});
