import { isForbiddenName, NO_PROPERTY, ownProperty } from './access.js';
import { ERROR_CODES, SDKError } from '@lousho/core';
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
/** Longest text one value becomes, in characters; a longer one is refused (LOUSHO_LIMIT_EXCEEDED). */
export const MAX_VALUE_TEXT_LENGTH = 1_000_000;

/**
 * The text of a value inside a string: strings as they are, missing and `null` as nothing, other
 * primitives as JavaScript writes them, objects and arrays as JSON made from their own data
 * properties only (no `toJSON`, no getter runs; a cycle is written as `"[Circular]"`).
 * A value shared in several places (a DAG) is written once and reused, so the time is linear in
 * the text; a text over MAX_VALUE_TEXT_LENGTH throws instead of growing (a DAG of 40 levels would
 * be 2^40 characters).
 */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value !== 'object') return typeof value === 'function' || typeof value === 'symbol' ? '' : String(value);
  return new JsonWriter().write(value, 0) ?? '';
}

class JsonWriter {
  readonly #path = new Set<object>();
  // The text of an object already written, by depth (the depth cut-off makes the text depend on it).
  readonly #done = new Map<object, Map<number, string>>();
  // How many cycles were cut so far: a text that cut one depends on the path and is not reused.
  #cycles = 0;

  write(value: unknown, depth: number): string | undefined {
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
    if (this.#path.has(value)) {
      this.#cycles++;
      return '"[Circular]"';
    }
    if (depth >= MAX_TEXT_DEPTH) return '"..."';
    const known = this.#done.get(value)?.get(depth);
    if (known !== undefined) return known;
    const cyclesBefore = this.#cycles;
    this.#path.add(value);
    const out = Array.isArray(value) ? this.#array(value, depth) : this.#object(value, depth);
    this.#path.delete(value);
    if (this.#cycles === cyclesBefore) {
      let byDepth = this.#done.get(value);
      if (!byDepth) this.#done.set(value, (byDepth = new Map()));
      byDepth.set(depth, out);
    }
    return out;
  }

  #array(value: unknown[], depth: number): string {
    const items: string[] = [];
    let length = 2;
    for (let i = 0; i < value.length; i++) {
      const item = ownProperty(value, i);
      const text = item === NO_PROPERTY ? 'null' : (this.write(item, depth + 1) ?? 'null');
      length = checkLength(length + text.length + 1);
      items.push(text);
    }
    return `[${items.join(',')}]`;
  }

  #object(value: object, depth: number): string {
    const fields: string[] = [];
    let length = 2;
    for (const key of Object.keys(value)) {
      const field = ownProperty(value, key);
      const text = field === NO_PROPERTY ? undefined : this.write(field, depth + 1);
      if (text === undefined) continue;
      const entry = `${JSON.stringify(key)}:${text}`;
      length = checkLength(length + entry.length + 1);
      fields.push(entry);
    }
    return `{${fields.join(',')}}`;
  }
}

function checkLength(length: number): number {
  if (length > MAX_VALUE_TEXT_LENGTH) {
    throw new SDKError(ERROR_CODES.LOUSHO_LIMIT_EXCEEDED, `A value's text would be longer than ${MAX_VALUE_TEXT_LENGTH} characters, so it is not put into the template.`, {
      hint: 'Refer to a smaller part of the value (a field, an id) in the placeholder.',
    });
  }
  return length;
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
