import { isForbiddenName, isPrimitive, kindOf, NO_PROPERTY, ownProperty } from './access.js';
import { bindTokens, type DroppedPlaceholder, type ExpressionVariables } from './bind.js';
import { ExpressionError } from './errors.js';
import { MAX_EXPRESSION_LENGTH } from './limits.js';
import { parse, type BinaryOperator, type ExprNode } from './parser.js';
import { tokenize } from './tokenizer.js';

/**
 * Evaluates a flow expression against `variables` (see "Flow expressions" in docs/flows.md).
 * Nothing is compiled or run as code: the text is tokenized, its `{{placeholders}}` are bound as
 * values, and the tree is walked. Only the variables and their own data properties are reachable.
 * Throws an `ExpressionError`, and nothing else, when the expression cannot be evaluated.
 */
export function evaluateExpression(expression: string, variables: ExpressionVariables = {}): unknown {
  const source = String(expression);
  try {
    if (typeof expression !== 'string') throw new ExpressionError(source, 0, `An expression must be a string, got ${kindOf(expression)}`);
    if (source.length > MAX_EXPRESSION_LENGTH) {
      throw new ExpressionError(source, MAX_EXPRESSION_LENGTH, `Expression too long (${source.length} characters; at most ${MAX_EXPRESSION_LENGTH})`);
    }
    const dropped: DroppedPlaceholder[] = [];
    const tokens = bindTokens(source, tokenize(source), variables, dropped);
    const tree = parse(source, tokens, (reason) =>
      dropped.length === 0
        ? reason
        : `${reason} (${dropped.map((d) => `{{${d.name}}} at position ${d.pos}`).join(', ')} had no value and contributes nothing)`,
    );
    return evaluate(source, tree, variables);
  } catch (error) {
    if (error instanceof ExpressionError) throw error;
    // A value that misbehaves (a throwing proxy, a bigint mixed with a number): still only an ExpressionError.
    const what = error instanceof Error ? `${error.name}: ${error.message}` : 'a non-error value was thrown';
    throw new ExpressionError(source, 0, `Evaluation failed (${what})`);
  }
}

function evaluate(source: string, node: ExprNode, variables: ExpressionVariables): unknown {
  const fail = (pos: number, reason: string): never => {
    throw new ExpressionError(source, pos, reason);
  };

  const read = (object: unknown, key: string | number, pos: number): unknown => {
    if (isForbiddenName(key)) return fail(pos, `Access to '${key}' is not allowed`);
    if (typeof object === 'string' || (typeof object === 'object' && object !== null)) {
      const value = ownProperty(object, key);
      return value === NO_PROPERTY ? undefined : value;
    }
    return fail(pos, `Cannot read '${String(key)}' of ${kindOf(object)}`);
  };

  const primitive = (value: unknown, op: string, pos: number): unknown =>
    isPrimitive(value) ? value : fail(pos, `'${op}' does not take ${kindOf(value)}`);

  const walk = (n: ExprNode): unknown => {
    switch (n.k) {
      case 'literal':
        return n.value;
      case 'variable': {
        const value = ownProperty(variables, n.name);
        return value === NO_PROPERTY ? fail(n.pos, `Unknown variable '${n.name}' (only the flow's own variables are reachable)`) : value;
      }
      case 'member': {
        const object = walk(n.object);
        if (n.computed === undefined) return read(object, n.key!, n.pos);
        const key = walk(n.computed);
        if (typeof key !== 'string' && !(typeof key === 'number' && Number.isInteger(key))) {
          return fail(n.computed.pos, `A property key must be a string or an integer, got ${kindOf(key)}`);
        }
        return read(object, key, n.pos);
      }
      case 'call': {
        const target = walk(n.object);
        const arg = walk(n.arg);
        if (Array.isArray(target) && n.method === 'includes') return Array.prototype.includes.call(target, arg);
        if (typeof target !== 'string') {
          return fail(n.pos, `${n.method}() works on ${n.method === 'includes' ? 'strings and arrays' : 'strings'}, not on ${kindOf(target)}`);
        }
        const text = String(primitive(arg, `${n.method}()`, n.arg.pos));
        return n.method === 'includes' ? target.includes(text) : n.method === 'startsWith' ? target.startsWith(text) : target.endsWith(text);
      }
      case 'unary': {
        const value = walk(n.arg);
        if (n.op === '!') return !value;
        const operand = primitive(value, n.op, n.pos) as number;
        return n.op === '-' ? -operand : +operand;
      }
      case 'logical': {
        const left = walk(n.left);
        if (n.op === '&&' ? !left : left) return left;
        return walk(n.right);
      }
      case 'binary':
        return binary(n.op, walk(n.left), walk(n.right), n.pos);
    }
  };

  const binary = (op: BinaryOperator, left: unknown, right: unknown, pos: number): unknown => {
    switch (op) {
      case '===':
        return left === right;
      case '!==':
        return left !== right;
      case '==':
      case '!=': {
        // Objects and arrays are equal only to themselves: they are never converted to compare.
        const equal = isPrimitive(left) && isPrimitive(right) ? left == right : left === right;
        return op === '==' ? equal : !equal;
      }
    }
    const a = primitive(left, op, pos) as number;
    const b = primitive(right, op, pos) as number;
    switch (op) {
      case '<':
        return a < b;
      case '<=':
        return a <= b;
      case '>':
        return a > b;
      case '>=':
        return a >= b;
      case '+':
        return a + b;
      case '-':
        return a - b;
      case '*':
        return a * b;
      case '/':
        return a / b;
      case '%':
        return a % b;
    }
  };

  return walk(node);
}

/** A condition's outcome: true when the expression evaluates to a truthy value. */
export function evaluateCondition(expression: string, variables: ExpressionVariables): boolean {
  return Boolean(evaluateExpression(expression, variables));
}
