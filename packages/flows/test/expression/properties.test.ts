import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateExpression, ExpressionError, MAX_EXPRESSION_LENGTH } from '../../src/index.js';

/**
 * Property tests of the expression language. The reference evaluation is JavaScript itself: the
 * generated expressions stay inside the part of the grammar where the language is documented to
 * behave like JavaScript (primitive operands, own properties, the three methods on strings), so
 * the engine's own evaluation of the same text is the oracle. (`new Function` lives in this test
 * only; the package has none, see no-eval.test.ts.)
 */

// The variables every generated expression may use.
const variables = {
  n1: 7,
  n2: -2.5,
  n3: 0,
  s1: 'refund',
  s2: "it's \\ \"quoted\" || true",
  s3: '',
  b1: true,
  b2: false,
  z: null,
  user: { name: 'Ada', age: 36, 'first-name': 'Ada', address: { city: 'Paris' } },
  list: ['a', 'b', 'refund'],
};
const names = Object.keys(variables);
const reference = (source: string): unknown => new Function(...names, `return (${source});`)(...Object.values(variables));

/** An expression tree of the supported grammar, with its precedence (for printing with minimal parentheses). */
interface Printed {
  text: string;
  /** 1 `||` ... 6 `* / %`, 7 unary, 8 member access / atoms. */
  prec: number;
}

const atom = (text: string): Printed => ({ text, prec: 8 });

/** Escapes a string as a single- or double-quoted literal of the language. */
function literal(value: string, quote: "'" | '"'): string {
  let out = quote;
  for (const c of value) {
    if (c === '\\') out += '\\\\';
    else if (c === quote) out += `\\${quote}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '{') out += '\\u007b'; // never a placeholder by accident
    else out += c;
  }
  return out + quote;
}

const wrap = (p: Printed, min: number, right = false): string => (p.prec < min || (right && p.prec === min) ? `(${p.text})` : p.text);

const stringAtom: fc.Arbitrary<Printed> = fc.oneof(
  fc.tuple(fc.string({ maxLength: 6, unit: fc.constantFrom('a', 'b', "'", '"', '\\', ' ', '|', '&', '=', 'r', 'e', '{', '\n') }), fc.constantFrom("'" as const, '"' as const)).map(([s, q]) => atom(literal(s, q))),
  fc.constantFrom('s1', 's2', 's3', 'user.name', "user['first-name']", 'user.address.city', 'list[0]', 'list[2]').map(atom),
);

const numberAtom: fc.Arbitrary<Printed> = fc.oneof(
  fc.integer({ min: 0, max: 1000 }).map((n) => atom(String(n))),
  fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 })).map(([a, b]) => atom(`${a}.${b}`)),
  fc.constantFrom('n1', 'n2', 'n3', 'user.age', 's1.length', 'list.length', 'user.address.city.length').map(atom),
);

const otherAtom: fc.Arbitrary<Printed> = fc.constantFrom('true', 'false', 'null', 'b1', 'b2', 'z', 'user.missing').map(atom);

const binaryOps: [string, number][] = [
  ['||', 1],
  ['&&', 2],
  ['==', 3],
  ['===', 3],
  ['!=', 3],
  ['!==', 3],
  ['<', 4],
  ['<=', 4],
  ['>', 4],
  ['>=', 4],
  ['+', 5],
  ['-', 5],
  ['*', 6],
  ['/', 6],
  ['%', 6],
];

const expression: fc.Arbitrary<Printed> = fc.letrec<{ expr: Printed; str: Printed }>((tie) => ({
  // A string-typed expression, for the receiver and argument of the methods.
  str: fc.oneof({ depthSize: 'medium', withCrossShrink: true }, stringAtom, fc.tuple(tie('str'), tie('str')).map(([a, b]) => ({ text: `${wrap(a, 5)} + ${wrap(b, 5, true)}`, prec: 5 }))),
  expr: fc.oneof(
    { depthSize: 'medium', withCrossShrink: true },
    stringAtom,
    numberAtom,
    otherAtom,
    fc.tuple(fc.constantFrom('!', '-', '+'), tie('expr')).map(([op, arg]) => ({ text: `${op} ${wrap(arg, 7)}`, prec: 7 })),
    fc.tuple(fc.constantFrom(...binaryOps), tie('expr'), tie('expr')).map(([[op, prec], a, b]) => ({ text: `${wrap(a, prec)} ${op} ${wrap(b, prec, true)}`, prec })),
    fc.tuple(tie('str'), fc.constantFrom('includes', 'startsWith', 'endsWith'), tie('str')).map(([s, m, a]) => ({ text: `${wrap(s, 8)}.${m}(${a.text})`, prec: 8 })),
    fc.tuple(fc.constantFrom('list'), tie('str')).map(([l, a]) => ({ text: `${l}.includes(${a.text})`, prec: 8 })),
    tie('expr').map((e) => atom(`(${e.text})`)),
  ),
})).expr;

/** Flat chains of operators without parentheses (`a + b * c < d || e`): precedence and associativity decide. */
const operand = fc.oneof(stringAtom, numberAtom, otherAtom, fc.tuple(fc.constantFrom('!', '-', '+'), numberAtom).map(([op, a]) => atom(`${op}${a.text}`)));
const chain: fc.Arbitrary<Printed> = fc
  .tuple(operand, fc.array(fc.tuple(fc.constantFrom(...binaryOps.map(([op]) => op)), operand), { minLength: 1, maxLength: 6 }))
  .map(([first, rest]) => ({ text: [first.text, ...rest.map(([op, a]) => `${op} ${a.text}`)].join(' '), prec: 1 }));

describe('expressions of the supported grammar', () => {
  it('chains of operators group as the documented precedence says (the reference agrees)', () => {
    fc.assert(
      fc.property(chain, ({ text }) => {
        const expected = reference(text);
        const actual = evaluateExpression(text, variables);
        expect(Object.is(actual, expected) || (Number.isNaN(actual) && Number.isNaN(expected))).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it('evaluate to what the reference evaluation gives', () => {
    fc.assert(
      fc.property(expression, ({ text }) => {
        const expected = reference(text);
        const actual = evaluateExpression(text, variables);
        expect(Object.is(actual, expected) || (Number.isNaN(actual) && Number.isNaN(expected))).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('placeholders are data', () => {
  /** Values made of the characters that would change the logic if pasted into the expression. */
  const hostileText = fc.string({ maxLength: 24, unit: fc.constantFrom("'", '"', '\\', '|', '&', '=', '!', '(', ')', '{', '}', 'x', ' ', 'refund', 'true', '+', '`', '$', '\n') });
  const hostileValue = fc.oneof(hostileText, fc.jsonValue({ maxDepth: 2 }), fc.constantFrom("x' === 'x' || 'a", "refund' || 'a' === 'a", '{{other}}', "') || true || ('"));

  it("a value inside a string literal never changes the condition's logic", () => {
    fc.assert(
      fc.property(hostileValue, hostileValue, (x, other) => {
        const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));
        expect(evaluateExpression("'{{x}}' === 'refund'", { x, other })).toBe(text(x) === 'refund');
        expect(evaluateExpression("\"{{x}}\" !== 'refund' && '{{other}}' === '{{other}}'", { x, other })).toBe(text(x) !== 'refund');
        expect(evaluateExpression("'{{x}}'.length", { x, other })).toBe(text(x).length);
      }),
      { numRuns: 1000 },
    );
  });

  it('a bare placeholder is one value, whatever it holds', () => {
    fc.assert(
      fc.property(hostileValue.filter((v) => v !== null), (x) => {
        expect(evaluateExpression("{{x}} === 'refund'", { x })).toBe(x === 'refund');
        expect(evaluateExpression('{{x}} === {{x}}', { x })).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('robustness', () => {
  const soup = fc.string({
    maxLength: 80,
    unit: fc.constantFrom('(', ')', '[', ']', '{{', '}}', "'", '"', '\\', '.', ',', '!', '=', '==', '<', '>', '&&', '||', '+', '-', '*', '/', '%', '?', ':', ' ', 'a', 'b', 'user', 'length', 'includes', 'constructor', '__proto__', '1', '2.5', 'null', 'true', '`', '$', 'new'),
  });
  const anyText = fc.oneof(soup, fc.string({ maxLength: 120 }), fc.string({ maxLength: 120, unit: 'binary' }));
  const strangeVariables = fc.constantFrom<Record<string, unknown>>(
    { a: 1, b: 'x', user: { length: 3 } },
    { a: new Proxy({}, { getOwnPropertyDescriptor: () => { throw new Error('trap'); } }), b: null },
    { a: Object.create(null), b: [1, [2, [3]]], user: Symbol('s') },
    { a: 10n, b: () => 1, user: new Date(0) },
  );

  it('throws nothing but ExpressionError, for any text and variables', () => {
    fc.assert(
      fc.property(anyText, strangeVariables, (text, vars) => {
        try {
          evaluateExpression(text, vars);
        } catch (error) {
          expect(error).toBeInstanceOf(ExpressionError);
          expect((error as ExpressionError).position).toBeGreaterThanOrEqual(0);
          expect((error as ExpressionError).position).toBeLessThanOrEqual(Math.max(text.length, MAX_EXPRESSION_LENGTH));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('terminates on the largest inputs it accepts, and refuses larger ones', () => {
    const inputs = [
      '('.repeat(MAX_EXPRESSION_LENGTH),
      `${'!'.repeat(MAX_EXPRESSION_LENGTH - 1)}1`,
      `${'a.'.repeat(MAX_EXPRESSION_LENGTH / 2 - 1)}a`,
      `${"'{{a}}' + ".repeat(MAX_EXPRESSION_LENGTH / 10 - 1)}'x'`,
      '{{a}}'.repeat(MAX_EXPRESSION_LENGTH / 5),
      '('.repeat(MAX_EXPRESSION_LENGTH * 100),
    ];
    const long = 'x'.repeat(1_000_000);
    for (const input of inputs) {
      try {
        evaluateExpression(input, { a: long });
      } catch (error) {
        expect(error).toBeInstanceOf(ExpressionError);
      }
    }
  });
});
