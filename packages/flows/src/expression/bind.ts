import { isForbiddenName, NO_PROPERTY, ownProperty } from './access.js';
import { ExpressionError } from './errors.js';
import type { Placeholder, Token } from './tokenizer.js';

/** Variables an expression is evaluated against: the flow's input and its nodes' outputs. */
export type ExpressionVariables = Readonly<Record<string, unknown>>;

/**
 * The value a placeholder path names, or undefined when any step is missing (a placeholder never
 * fails for a missing value). Only own data properties are read; `constructor`, `__proto__` and
 * `prototype` are refused.
 */
export function resolvePlaceholder(source: string, variables: ExpressionVariables, placeholder: Placeholder): unknown {
  let value: unknown = variables;
  for (const key of placeholder.path) {
    if (isForbiddenName(key)) throw new ExpressionError(source, placeholder.pos, `Access to '${String(key)}' is not allowed`);
    if (value === null || value === undefined || (typeof value !== 'object' && typeof value !== 'string')) return undefined;
    const next = ownProperty(value as object | string, key);
    if (next === NO_PROPERTY) return undefined;
    value = next;
  }
  return value;
}

/** Deepest object a value's text goes into (deeper parts are written as `"..."`). */
const MAX_TEXT_DEPTH = 32;

/**
 * The text of a value inside a string: strings as they are, missing and `null` as nothing, other
 * primitives as JavaScript writes them, objects and arrays as JSON made from their own data
 * properties only (no `toJSON`, no getter runs; a cycle is written as `"[Circular]"`).
 */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value !== 'object') return typeof value === 'function' || typeof value === 'symbol' ? '' : String(value);
  return jsonOf(value, new Set(), 0) ?? '';
}

function jsonOf(value: unknown, seen: Set<object>, depth: number): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return String(value);
    case 'bigint':
      return JSON.stringify(String(value));
    case 'object':
      break;
    default:
      return undefined;
  }
  if (seen.has(value)) return '"[Circular]"';
  if (depth >= MAX_TEXT_DEPTH) return '"..."';
  seen.add(value);
  let out: string;
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) {
      const item = ownProperty(value, i);
      items.push(item === NO_PROPERTY ? 'null' : (jsonOf(item, seen, depth + 1) ?? 'null'));
    }
    out = `[${items.join(',')}]`;
  } else {
    const fields: string[] = [];
    for (const key of Object.keys(value)) {
      const field = ownProperty(value, key);
      const text = field === NO_PROPERTY ? undefined : jsonOf(field, seen, depth + 1);
      if (text !== undefined) fields.push(`${JSON.stringify(key)}:${text}`);
    }
    out = `{${fields.join(',')}}`;
  }
  seen.delete(value);
  return out;
}

/** A placeholder left out because its value is missing or null (for the error message that may follow). */
export interface DroppedPlaceholder {
  name: string;
  pos: number;
}

/**
 * Binds the placeholders of a token list: a string literal's placeholders are replaced by their
 * value's text (the literal stays one string token, whatever the text holds), and a bare
 * placeholder becomes a value token, or disappears when its value is missing or `null`. The
 * values are never read as expression text.
 */
export function bindTokens(source: string, tokens: readonly Token[], variables: ExpressionVariables, dropped: DroppedPlaceholder[]): Token[] {
  const out: Token[] = [];
  for (const token of tokens) {
    if (token.t === 'string') {
      let text = '';
      for (const piece of token.pieces) text += typeof piece === 'string' ? piece : textOf(resolvePlaceholder(source, variables, piece));
      out.push({ t: 'value', value: text, pos: token.pos });
    } else if (token.t === 'placeholder') {
      const value = resolvePlaceholder(source, variables, token.placeholder);
      if (value === undefined || value === null) dropped.push({ name: token.placeholder.path.join('.'), pos: token.pos });
      else out.push({ t: 'value', value, pos: token.pos });
    } else out.push(token);
  }
  return out;
}
