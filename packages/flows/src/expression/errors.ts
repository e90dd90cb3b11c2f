import { SDKError } from '@lousho/core';

/** The forms the expression language supports, as every `ExpressionError` lists them. */
export const SUPPORTED_EXPRESSION_FORMS: readonly string[] = [
  "literals ('text', \"text\", 42, 1.5, true, false, null)",
  "variables and paths (score, user.address.city, user['first-name'], items[0].id, {{name}})",
  'length of strings and arrays (name.length)',
  'comparison (== === != !== < <= > >=)',
  'logical (&& || !)',
  'arithmetic (+ - * / %, unary - and +)',
  'grouping ( ... )',
  's.includes(x), s.startsWith(x), s.endsWith(x) on strings and list.includes(x) on arrays, with exactly one argument',
];

/** Longest piece of the expression an error message quotes. */
const QUOTED_LENGTH = 200;

function quote(expression: string): string {
  const text = expression.length > QUOTED_LENGTH ? `${expression.slice(0, QUOTED_LENGTH)}...` : expression;
  return JSON.stringify(text);
}

/**
 * An expression that cannot be evaluated: a form the language does not support, a syntax error,
 * an unknown variable, or a value an operator cannot take. Names the expression, the character
 * position (0-based) and the supported forms; never quotes a variable's value.
 */
export class ExpressionError extends SDKError {
  /** The expression as written (before `{{placeholders}}` were bound). */
  readonly expression: string;
  /** Where the problem is: a 0-based character index in `expression`. */
  readonly position: number;
  /** What is wrong, without the expression and the list of forms. */
  readonly reason: string;
  readonly supportedForms: readonly string[] = SUPPORTED_EXPRESSION_FORMS;

  constructor(expression: string, position: number, reason: string) {
    super(
      'LOUSHO_EXPRESSION_INVALID',
      `${reason} at position ${position} in expression ${quote(expression)}. Supported forms: ${SUPPORTED_EXPRESSION_FORMS.join('; ')}.`,
      { hint: 'Rewrite the expression with the supported forms only; see "Flow expressions" in docs/flows.md.' },
    );
    this.name = 'ExpressionError';
    this.expression = expression;
    this.position = position;
    this.reason = reason;
  }
}
