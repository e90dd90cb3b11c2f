import { isForbiddenName } from './access.js';
import { ExpressionError } from './errors.js';
import { MAX_EXPRESSION_DEPTH } from './limits.js';
import type { Token } from './tokenizer.js';

export type BinaryOperator = '==' | '===' | '!=' | '!==' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%';
export type AllowedMethod = 'includes' | 'startsWith' | 'endsWith';

/** The expression tree. `pos` is where the node's operator (or name, or literal) is in the source. */
export type ExprNode =
  | { k: 'literal'; value: unknown; pos: number }
  | { k: 'variable'; name: string; pos: number }
  /** `object.key` (`key` fixed) or `object[expr]` (`computed`). */
  | { k: 'member'; object: ExprNode; key?: string | number; computed?: ExprNode; pos: number }
  | { k: 'call'; object: ExprNode; method: AllowedMethod; arg: ExprNode; pos: number }
  | { k: 'unary'; op: '!' | '-' | '+'; arg: ExprNode; pos: number }
  | { k: 'logical'; op: '&&' | '||'; left: ExprNode; right: ExprNode; pos: number }
  | { k: 'binary'; op: BinaryOperator; left: ExprNode; right: ExprNode; pos: number };

const ALLOWED_METHODS = new Set<string>(['includes', 'startsWith', 'endsWith']);

/** Binding power of each infix operator: loosest first, as the docs list them. */
const INFIX_POWER: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '==': 3,
  '===': 3,
  '!=': 3,
  '!==': 3,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '%': 6,
};
const UNARY_POWER = 7;
const MEMBER_POWER = 8;

/** Words that mean something in JavaScript and nothing here. */
const RESERVED_WORDS = new Set([
  'new',
  'function',
  'typeof',
  'void',
  'delete',
  'in',
  'instanceof',
  'this',
  'class',
  'await',
  'yield',
  'import',
  'export',
  'super',
  'arguments',
  'eval',
  'var',
  'let',
  'const',
  'return',
  'if',
  'else',
  'for',
  'while',
  'do',
  'switch',
  'case',
  'throw',
  'try',
  'catch',
  'with',
  'debugger',
]);

/** Parses bound tokens into a tree (a Pratt parser). Depth is capped so evaluation never recurses far. */
export function parse(source: string, tokens: readonly Token[], explainFailure: (reason: string, pos: number) => string = (r) => r): ExprNode {
  let index = 0;
  const peek = (): Token => tokens[index]!;
  const fail = (pos: number, reason: string): never => {
    throw new ExpressionError(source, pos, explainFailure(reason, pos));
  };
  const describe = (token: Token): string => {
    switch (token.t) {
      case 'end':
        return 'end of expression';
      case 'op':
        return `'${token.op}'`;
      case 'ident':
        return `'${token.name}'`;
      default:
        return 'a value';
    }
  };
  const isOp = (token: Token, op: string): boolean => token.t === 'op' && token.op === op;
  const expect = (op: string): Token => {
    const token = peek();
    if (!isOp(token, op)) fail(token.pos, `Expected '${op}' but found ${describe(token)}`);
    index++;
    return token;
  };
  const depthOf = new WeakMap<ExprNode, number>();
  const make = (node: ExprNode, ...children: ExprNode[]): ExprNode => {
    let depth = 1;
    for (const child of children) depth = Math.max(depth, (depthOf.get(child) ?? 1) + 1);
    if (depth > MAX_EXPRESSION_DEPTH) fail(node.pos, `Expression nested too deeply (more than ${MAX_EXPRESSION_DEPTH} levels)`);
    depthOf.set(node, depth);
    return node;
  };

  const prefix = (level: number): ExprNode => {
    const token = peek();
    index++;
    switch (token.t) {
      case 'number':
      case 'value':
        return make({ k: 'literal', value: token.value, pos: token.pos });
      case 'ident': {
        const { name, pos } = token;
        if (name === 'true' || name === 'false') return make({ k: 'literal', value: name === 'true', pos });
        if (name === 'null') return make({ k: 'literal', value: null, pos });
        if (RESERVED_WORDS.has(name)) fail(pos, `Unsupported form: '${name}'`);
        if (isForbiddenName(name)) fail(pos, `Access to '${name}' is not allowed`);
        if (isOp(peek(), '(')) fail(peek().pos, `Unsupported form: a function call ('${name}(...)')`);
        return make({ k: 'variable', name, pos });
      }
      case 'op':
        switch (token.op) {
          case '(': {
            const inner = expression(0, level + 1);
            expect(')');
            return inner;
          }
          case '!':
          case '-':
          case '+': {
            const arg = expression(UNARY_POWER, level + 1);
            return make({ k: 'unary', op: token.op, arg, pos: token.pos }, arg);
          }
          case '[':
            return fail(token.pos, 'Unsupported form: an array literal');
        }
        return fail(token.pos, `Unexpected '${token.op}'`);
      case 'end':
        return fail(token.pos, 'Unexpected end of expression');
      default:
        return fail(token.pos, 'Unexpected token');
    }
  };

  /** Parses the rest of `object` after a `.` or `[`, including an allowed method call. */
  const member = (object: ExprNode, level: number): ExprNode => {
    const token = peek();
    index++;
    if (isOp(token, '[')) {
      const keyNode = expression(0, level + 1);
      expect(']');
      if (isOp(peek(), '(')) fail(peek().pos, "Unsupported form: a call through '[...]' (write value.includes(x))");
      if (keyNode.k === 'literal' && (typeof keyNode.value === 'string' || typeof keyNode.value === 'number')) {
        if (isForbiddenName(keyNode.value)) fail(keyNode.pos, `Access to '${String(keyNode.value)}' is not allowed`);
        return make({ k: 'member', object, key: keyNode.value, pos: token.pos }, object);
      }
      return make({ k: 'member', object, computed: keyNode, pos: token.pos }, object, keyNode);
    }
    const name = peek();
    if (name.t !== 'ident') return fail(name.pos, `Expected a property name after '.' but found ${describe(name)}`);
    index++;
    if (isForbiddenName(name.name)) fail(name.pos, `Access to '${name.name}' is not allowed`);
    if (!isOp(peek(), '(')) return make({ k: 'member', object, key: name.name, pos: name.pos }, object);
    // A method call: only the allow-listed ones, with exactly one argument.
    if (!ALLOWED_METHODS.has(name.name)) fail(name.pos, `Unsupported form: the method '${name.name}()' (only includes, startsWith and endsWith)`);
    const open = expect('(');
    if (isOp(peek(), ')')) fail(open.pos, `${name.name}() takes exactly one argument`);
    const arg = expression(0, level + 1);
    if (isOp(peek(), ',')) fail(peek().pos, `${name.name}() takes exactly one argument`);
    expect(')');
    return make({ k: 'call', object, method: name.name as AllowedMethod, arg, pos: name.pos }, object, arg);
  };

  function expression(minPower: number, level: number): ExprNode {
    if (level > MAX_EXPRESSION_DEPTH) fail(peek().pos, `Expression nested too deeply (more than ${MAX_EXPRESSION_DEPTH} levels)`);
    let left = prefix(level);
    for (;;) {
      const token = peek();
      if (token.t !== 'op') {
        if (token.t === 'end') return left;
        return fail(token.pos, `Unexpected ${describe(token)}: an operator was expected`);
      }
      if (token.op === '.' || token.op === '[') {
        if (MEMBER_POWER <= minPower) return left;
        left = member(left, level);
        continue;
      }
      if (token.op === '(') return fail(token.pos, 'Unsupported form: a function call');
      const power = INFIX_POWER[token.op];
      if (power === undefined || power <= minPower) return left;
      index++;
      const right = expression(power, level + 1);
      left =
        token.op === '&&' || token.op === '||'
          ? make({ k: 'logical', op: token.op, left, right, pos: token.pos }, left, right)
          : make({ k: 'binary', op: token.op as BinaryOperator, left, right, pos: token.pos }, left, right);
    }
  }

  const tree = expression(0, 0);
  const rest = peek();
  if (rest.t !== 'end') fail(rest.pos, `Unexpected ${describe(rest)}`);
  return tree;
}
