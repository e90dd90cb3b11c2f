import { ExpressionError } from './errors.js';

/** A `{{name.path}}` placeholder: the variable name, then property names and indices. */
export interface Placeholder {
  path: readonly (string | number)[];
  /** Where `{{` starts. */
  pos: number;
  /** Where the text after `}}` starts. */
  end: number;
}

/** Tokens as the tokenizer makes them; `bind` turns `placeholder` and `string` into `value`. */
export type Token =
  | { t: 'number'; value: number; pos: number }
  /** A string literal: text pieces and the placeholders inside it, in order. */
  | { t: 'string'; pieces: readonly (string | Placeholder)[]; pos: number }
  | { t: 'ident'; name: string; pos: number }
  | { t: 'op'; op: string; pos: number }
  /** A bare `{{name}}` outside any string literal. */
  | { t: 'placeholder'; placeholder: Placeholder; pos: number }
  /** A bound value (a literal's text with its placeholders filled, or a bare placeholder's value). */
  | { t: 'value'; value: unknown; pos: number }
  | { t: 'end'; pos: number };

/** Operators and punctuation, longest first within each starting character. */
const OPERATORS = ['===', '!==', '==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '+', '-', '*', '/', '%', '(', ')', '[', ']', '.', ','];

/** Forms that look like operators but are not supported, with what to call them. */
const REJECTED_OPERATORS: readonly [string, string][] = [
  ['>>>=', 'assignment'],
  ['<<=', 'assignment'],
  ['>>=', 'assignment'],
  ['**=', 'assignment'],
  ['&&=', 'assignment'],
  ['||=', 'assignment'],
  ['??=', 'assignment'],
  ['>>>', 'the bitwise operator'],
  ['...', 'spread syntax'],
  ['=>', 'an arrow function'],
  ['+=', 'assignment'],
  ['-=', 'assignment'],
  ['*=', 'assignment'],
  ['/=', 'assignment'],
  ['%=', 'assignment'],
  ['&=', 'assignment'],
  ['|=', 'assignment'],
  ['^=', 'assignment'],
  ['++', 'the increment operator'],
  ['--', 'the decrement operator'],
  ['**', 'the exponent operator'],
  ['<<', 'the bitwise operator'],
  ['>>', 'the bitwise operator'],
  ['?.', 'optional chaining'],
  ['??', 'the nullish operator'],
  ['//', 'a comment'],
  ['/*', 'a comment'],
];

const REJECTED_CHARACTERS: Record<string, string> = {
  '=': 'assignment',
  '?': 'a ternary',
  ':': 'a ternary',
  '`': 'a template string',
  '{': 'an object literal',
  '}': "'}' outside a placeholder",
  '&': 'the bitwise operator',
  '|': 'the bitwise operator',
  '^': 'the bitwise operator',
  '~': 'the bitwise operator',
  ';': 'a statement separator',
};

const ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', n: '\n', r: '\r', t: '\t' };

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isIdentStart = (c: string | undefined): boolean => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
const isIdentPart = (c: string | undefined): boolean => isIdentStart(c) || isDigit(c);
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * Reads a placeholder starting at `pos` (on `{{`): `{{ name }}`, `{{ name.key[0].other }}`.
 * Returns undefined when the text there is not one.
 */
export function readPlaceholder(source: string, pos: number): Placeholder | undefined {
  let i = pos + 2;
  while (isSpace(source[i])) i++;
  const path: (string | number)[] = [];
  const ident = (): string | undefined => {
    if (!isIdentStart(source[i])) return undefined;
    const start = i;
    while (isIdentPart(source[i])) i++;
    return source.slice(start, i);
  };
  const first = ident();
  if (first === undefined) return undefined;
  path.push(first);
  for (;;) {
    if (source[i] === '.') {
      i++;
      const name = ident();
      if (name === undefined) return undefined;
      path.push(name);
    } else if (source[i] === '[') {
      const start = ++i;
      while (isDigit(source[i])) i++;
      if (i === start || source[i] !== ']') return undefined;
      path.push(Number(source.slice(start, i)));
      i++;
    } else break;
  }
  while (isSpace(source[i])) i++;
  if (source[i] !== '}' || source[i + 1] !== '}') return undefined;
  return { path, pos, end: i + 2 };
}

/** Splits `source` into tokens. Throws an `ExpressionError` at the first character it cannot take. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const fail = (pos: number, reason: string): never => {
    throw new ExpressionError(source, pos, reason);
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (isDigit(c)) {
      const start = i;
      while (isDigit(source[i])) i++;
      if (source[i] === '.' && isDigit(source[i + 1])) {
        i++;
        while (isDigit(source[i])) i++;
      }
      if (isIdentPart(source[i]) || source[i] === '$') fail(i, `Unexpected '${source[i]}' after a number`);
      tokens.push({ t: 'number', value: Number(source.slice(start, i)), pos: start });
      continue;
    }
    if (isIdentStart(c)) {
      const start = i;
      while (isIdentPart(source[i])) i++;
      if (source[i] === '$') fail(i, "Unexpected character '$'");
      tokens.push({ t: 'ident', name: source.slice(start, i), pos: start });
      continue;
    }
    if (c === "'" || c === '"') {
      i = readString(source, i, tokens, fail);
      continue;
    }
    if (c === '{' && source[i + 1] === '{') {
      const placeholder = readPlaceholder(source, i) ?? fail(i, 'Malformed placeholder: write {{name}} or {{name.path}}');
      tokens.push({ t: 'placeholder', placeholder, pos: i });
      i = placeholder.end;
      continue;
    }
    const rejected = REJECTED_OPERATORS.find(([op]) => source.startsWith(op, i));
    if (rejected) fail(i, `Unsupported form: ${rejected[1]} ('${rejected[0]}')`);
    const op = OPERATORS.find((candidate) => source.startsWith(candidate, i));
    if (op) {
      tokens.push({ t: 'op', op, pos: i });
      i += op.length;
      continue;
    }
    const what = REJECTED_CHARACTERS[c];
    fail(i, what ? `Unsupported form: ${what} ('${c}')` : `Unexpected character ${JSON.stringify(c)}`);
  }
  tokens.push({ t: 'end', pos: source.length });
  return tokens;
}

/** Reads a string literal from its opening quote at `start`; returns the index after its closing quote. */
function readString(source: string, start: number, tokens: Token[], fail: (pos: number, reason: string) => never): number {
  const quote = source[start]!;
  const pieces: (string | Placeholder)[] = [];
  let text = '';
  let i = start + 1;
  for (;;) {
    const c = source[i];
    if (c === undefined || c === '\n' || c === '\r') fail(start, 'Unterminated string literal');
    if (c === quote) break;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === 'u') {
        const hex = source.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(i, 'Malformed \\u escape: write \\u followed by four hex digits');
        text += String.fromCharCode(Number.parseInt(hex, 16));
        i += 6;
        continue;
      }
      const escaped = next === undefined ? undefined : ESCAPES[next];
      if (escaped === undefined) fail(i, `Unsupported escape '\\${next ?? ''}' (use \\\\ \\' \\" \\n \\r \\t or \\uXXXX)`);
      text += escaped;
      i += 2;
      continue;
    }
    if (c === '{' && source[i + 1] === '{') {
      const placeholder = readPlaceholder(source, i);
      if (placeholder) {
        if (text) pieces.push(text);
        text = '';
        pieces.push(placeholder);
        i = placeholder.end;
        continue;
      }
    }
    text += c;
    i++;
  }
  if (text || pieces.length === 0) pieces.push(text);
  tokens.push({ t: 'string', pieces, pos: start });
  return i + 1;
}
