import { describe, expect, it } from 'vitest';
import { evaluateExpression, ExpressionError, MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH, SUPPORTED_EXPRESSION_FORMS } from '../../src/index.js';

const vars = {
  score: 92,
  name: 'Lousho',
  flag: true,
  nothing: null,
  user: { address: { city: 'Paris' }, 'first-name': 'Ada', tags: ['vip', 'beta'] },
  items: [{ id: 'a1' }, { id: 'b2' }],
  classify: 'refund',
};

/** The ExpressionError an expression throws (fails the test when it does not throw one). */
function rejection(expression: string, variables: Record<string, unknown> = vars): ExpressionError {
  try {
    evaluateExpression(expression, variables);
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    return error as ExpressionError;
  }
  throw new Error(`expected ${JSON.stringify(expression)} to be rejected`);
}

describe('the documented forms', () => {
  it.each([
    ["'text'", 'text'],
    ['"text"', 'text'],
    ['42', 42],
    ['1.5', 1.5],
    ['true', true],
    ['false', false],
    ['null', null],
  ])('literal %s', (expression, value) => {
    expect(evaluateExpression(expression)).toBe(value);
  });

  it('variables and paths', () => {
    expect(evaluateExpression('score', vars)).toBe(92);
    expect(evaluateExpression('user.address.city', vars)).toBe('Paris');
    expect(evaluateExpression("user['first-name']", vars)).toBe('Ada');
    expect(evaluateExpression('items[0].id', vars)).toBe('a1');
    expect(evaluateExpression('items[1]["id"]', vars)).toBe('b2');
    expect(evaluateExpression('user.missing', vars)).toBeUndefined();
  });

  it('length of strings and arrays', () => {
    expect(evaluateExpression('name.length', vars)).toBe(6);
    expect(evaluateExpression('items.length', vars)).toBe(2);
    expect(evaluateExpression('user.tags.length > 1', vars)).toBe(true);
  });

  it('comparison', () => {
    expect(evaluateExpression("score == '92'", vars)).toBe(true);
    expect(evaluateExpression("score === '92'", vars)).toBe(false);
    expect(evaluateExpression("score != '92'", vars)).toBe(false);
    expect(evaluateExpression("score !== '92'", vars)).toBe(true);
    expect(evaluateExpression('score < 100 && score <= 92 && score > 91 && score >= 92', vars)).toBe(true);
    expect(evaluateExpression("'apple' < 'banana'", vars)).toBe(true);
  });

  it('logical operators short-circuit and return the deciding operand', () => {
    expect(evaluateExpression("nothing || 'fallback'", vars)).toBe('fallback');
    expect(evaluateExpression("name && 'both'", vars)).toBe('both');
    expect(evaluateExpression('0 && user.missing.deeper', vars)).toBe(0);
    expect(evaluateExpression('1 || user.missing.deeper', vars)).toBe(1);
    expect(evaluateExpression('!flag', vars)).toBe(false);
    expect(evaluateExpression('!!name', vars)).toBe(true);
  });

  it('arithmetic, unary - and +, grouping', () => {
    expect(evaluateExpression('1 + 2 * 3 - 4 / 2 % 3', vars)).toBe(1 + 2 * 3 - ((4 / 2) % 3));
    expect(evaluateExpression('(1 + 2) * 3', vars)).toBe(9);
    expect(evaluateExpression('-score + +"8"', vars)).toBe(-84);
    expect(evaluateExpression("name + '!'", vars)).toBe('Lousho!');
    expect(evaluateExpression('- -1', vars)).toBe(1);
  });

  it('the allow-listed methods, with exactly one argument', () => {
    expect(evaluateExpression("name.includes('ous')", vars)).toBe(true);
    expect(evaluateExpression("name.startsWith('Lou')", vars)).toBe(true);
    expect(evaluateExpression("name.endsWith('sho')", vars)).toBe(true);
    expect(evaluateExpression("user.tags.includes('vip')", vars)).toBe(true);
    expect(evaluateExpression("user.tags.includes('nope')", vars)).toBe(false);
  });

  it('precedence, loosest to tightest: ||, &&, equality, relational, + -, * / %, unary, member access', () => {
    expect(evaluateExpression('true || false && false', vars)).toBe(true);
    expect(evaluateExpression('1 == 1 && 2', vars)).toBe(2);
    expect(evaluateExpression('1 < 2 == true', vars)).toBe(true);
    expect(evaluateExpression('1 + 2 < 4', vars)).toBe(true);
    expect(evaluateExpression('2 + 3 * 4', vars)).toBe(14);
    expect(evaluateExpression('-2 * 3', vars)).toBe(-6);
    expect(evaluateExpression('!name.length', vars)).toBe(false);
    expect(evaluateExpression('-items.length', vars)).toBe(-2);
  });
});

describe('{{placeholders}}', () => {
  it('bare placeholders are values', () => {
    expect(evaluateExpression('{{score}} >= 90', vars)).toBe(true);
    expect(evaluateExpression('{{user.address.city}}', vars)).toBe('Paris');
    expect(evaluateExpression('{{items[1].id}}', vars)).toBe('b2');
    expect(evaluateExpression('{{user.tags}}.length', vars)).toBe(2);
  });

  it('inside a string literal, the value is interpolated into that literal after tokenizing', () => {
    expect(evaluateExpression("'{{classify}}' === 'refund'", vars)).toBe(true);
    expect(evaluateExpression("'city: {{user.address.city}}!'", vars)).toBe('city: Paris!');
    expect(evaluateExpression("'{{score}}' === '92'", vars)).toBe(true);
    expect(evaluateExpression("'{{user.tags}}'", vars)).toBe('["vip","beta"]');
  });

  it('a value holding quotes, backslashes or operators is only data', () => {
    const attack = "x' === 'x' || 'a";
    expect(evaluateExpression("'{{classify}}' === 'refund'", { classify: attack })).toBe(false);
    expect(evaluateExpression('{{classify}} === "refund"', { classify: attack })).toBe(false);
    expect(evaluateExpression("'{{v}}'", { v: "\\' + process + '" })).toBe("\\' + process + '");
    // A value that looks like a placeholder is not expanded again.
    expect(evaluateExpression("'{{v}}'", { v: '{{secret}}', secret: 'leaked' })).toBe('{{secret}}');
  });

  it('a missing or null variable is an empty string inside a literal', () => {
    expect(evaluateExpression("'{{missing}}' === ''", vars)).toBe(true);
    expect(evaluateExpression("'{{nothing}}' === ''", vars)).toBe(true);
    expect(evaluateExpression("'a{{user.nope.deeper}}b'", vars)).toBe('ab');
  });

  it('used bare, a missing or null variable contributes nothing: `{{missing}} >= 90` is a syntax error', () => {
    const error = rejection('{{missing}} >= 90');
    expect(error.position).toBe(12);
    expect(error.message).toContain('{{missing}} at position 0 had no value');
    expect(rejection('{{nothing}} >= 90').position).toBe(12);
    // Contributing nothing can leave a valid expression.
    expect(evaluateExpression('{{missing}} 1 + 1', vars)).toBe(2);
  });

  it('placeholders cannot reach prototypes either', () => {
    expect(rejection("'{{user.constructor}}'").reason).toContain("'constructor'");
    expect(rejection('{{user.__proto__}}').reason).toContain("'__proto__'");
  });
});

describe('rejected forms', () => {
  it.each([
    ['Math.max(1, 2)', "method 'max()'"],
    ['parseInt("1")', 'function call'],
    ['name.toUpperCase()', "method 'toUpperCase()'"],
    ['name.includes()', 'exactly one argument'],
    ["name.includes('a', 1)", 'exactly one argument'],
    ["name['includes']('a')", "call through '[...]'"],
    ['(name)(1)', 'function call'],
    ['score = 1', 'assignment'],
    ['score += 1', 'assignment'],
    ['score++', 'increment'],
    ['--score', 'decrement'],
    ['flag ? 1 : 2', 'ternary'],
    ['`text ${score}`', 'template string'],
    ['{ a: 1 }', 'object literal'],
    ['[1, 2]', 'array literal'],
    ['user.constructor', "'constructor'"],
    ['user.__proto__', "'__proto__'"],
    ['user.prototype', "'prototype'"],
    ["items[0]['constructor']", "'constructor'"],
    ['process.env', "Unknown variable 'process'"],
    ['require("fs")', 'function call'],
    ['globalThis', "Unknown variable 'globalThis'"],
    ['this', "'this'"],
    ['new Date()', "'new'"],
    ['typeof score', "'typeof'"],
    ['score ** 2', 'exponent'],
    ['score & 1', 'bitwise'],
    ['user?.address', 'optional chaining'],
    ['nothing ?? 1', 'nullish'],
    ['() => 1', 'arrow function'],
    ["'unterminated", 'Unterminated string'],
    ["'\\q'", 'Unsupported escape'],
    ['1 +', 'end of expression'],
    ['score score', 'operator was expected'],
    ['{{ not a placeholder }}', 'Malformed placeholder'],
  ])('%s', (expression, reason) => {
    const error = rejection(expression);
    expect(error.code).toBe('LOUSHO_EXPRESSION_INVALID');
    expect(error.reason).toContain(reason);
  });

  it('an ExpressionError names the expression, the character position and the supported forms', () => {
    const error = rejection("score > 1 && name.toUpperCase() === 'X'");
    expect(error.expression).toBe("score > 1 && name.toUpperCase() === 'X'");
    expect(error.position).toBe(18);
    expect(error.message).toContain('position 18');
    expect(error.message).toContain(JSON.stringify(error.expression));
    for (const form of SUPPORTED_EXPRESSION_FORMS) expect(error.message).toContain(form);
    expect(error.supportedForms).toEqual(SUPPORTED_EXPRESSION_FORMS);
  });

  it('values an operator cannot take are ExpressionErrors too', () => {
    expect(rejection('user.missing.deeper').reason).toContain("Cannot read 'deeper' of undefined");
    expect(rejection('score.length').reason).toContain('of a number');
    expect(rejection('user + 1').reason).toContain("'+' does not take an object");
    expect(rejection('score.includes(1)').reason).toContain('strings and arrays');
    expect(rejection('name.startsWith(user)').reason).toContain('does not take an object');
    expect(rejection('user[flag]').reason).toContain('property key');
  });

  it('objects are compared, never converted', () => {
    expect(evaluateExpression("user.tags == 'vip,beta'", vars)).toBe(false);
    expect(evaluateExpression('user.tags == user.tags', vars)).toBe(true);
    expect(evaluateExpression('nothing == undefinedValue', { ...vars, undefinedValue: undefined })).toBe(true);
  });
});

describe('only the flow\'s own variables, and only their own properties', () => {
  it('prototype members are unreachable, own data properties are', () => {
    class Account {
      readonly id = 'acc-1';
      get secret(): string {
        throw new Error('a getter ran');
      }
      balance(): number {
        return 1;
      }
    }
    const account = new Account();
    expect(evaluateExpression('account.id', { account })).toBe('acc-1');
    expect(evaluateExpression('account.secret', { account })).toBeUndefined();
    expect(evaluateExpression('account.balance', { account })).toBeUndefined();
    expect(evaluateExpression('name.toString', { name: 'x' })).toBeUndefined();
    expect(evaluateExpression('items.map', { items: [] })).toBeUndefined();
    expect(rejection('toString', {}).reason).toContain("Unknown variable 'toString'");
  });

  it('own accessors are not run', () => {
    let ran = false;
    const value = Object.defineProperty({}, 'lazy', {
      enumerable: true,
      get() {
        ran = true;
        return 1;
      },
    });
    expect(evaluateExpression('value.lazy', { value })).toBeUndefined();
    expect(evaluateExpression("'{{value}}'", { value })).toBe('{}');
    expect(ran).toBe(false);
  });

  it('a variable inherited by the variables object is not a variable', () => {
    const inherited = Object.create({ secret: 'from the prototype' }) as Record<string, unknown>;
    expect(rejection('secret', inherited).reason).toContain("Unknown variable 'secret'");
    expect(rejection('hasOwnProperty', {}).reason).toContain("Unknown variable 'hasOwnProperty'");
  });

  it("a parsed JSON '__proto__' key is still refused", () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(rejection("data['__proto__']", { data: parsed }).reason).toContain("'__proto__'");
    expect(rejection('data[key]', { data: parsed, key: '__proto__' }).reason).toContain("'__proto__'");
  });

  it('a misbehaving value still only gives an ExpressionError', () => {
    const hostile = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new TypeError('trap');
        },
      },
    );
    expect(rejection('hostile.x', { hostile }).reason).toContain('Evaluation failed');
    expect(rejection('big + 1', { big: 10n }).reason).toContain('Evaluation failed');
  });
});

describe('limits', () => {
  it(`an expression longer than ${MAX_EXPRESSION_LENGTH} characters is refused before it is read`, () => {
    const error = rejection(`${'1 + '.repeat(MAX_EXPRESSION_LENGTH / 4)}1`);
    expect(error.reason).toContain('too long');
  });

  it(`nesting deeper than ${MAX_EXPRESSION_DEPTH} levels is refused`, () => {
    expect(evaluateExpression(`${'('.repeat(MAX_EXPRESSION_DEPTH - 2)}1${')'.repeat(MAX_EXPRESSION_DEPTH - 2)}`)).toBe(1);
    expect(rejection(`${'('.repeat(MAX_EXPRESSION_DEPTH + 1)}1${')'.repeat(MAX_EXPRESSION_DEPTH + 1)}`).reason).toContain('nested too deeply');
    expect(rejection(`${'!'.repeat(MAX_EXPRESSION_DEPTH + 1)}1`).reason).toContain('nested too deeply');
    expect(rejection(Array.from({ length: MAX_EXPRESSION_DEPTH + 2 }, () => '1').join(' + ')).reason).toContain('nested too deeply');
  });

  it('a non-string expression is an ExpressionError', () => {
    expect(() => evaluateExpression(42 as unknown as string)).toThrow(ExpressionError);
  });
});
