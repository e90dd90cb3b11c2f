import { compileLinearRegExp, ERROR_CODES, SDKError } from '@lousho/core';
import { hasOwn, isJsonObject, type JsonObject } from './json-value.js';

/*
 * An MCP server's input schema, reduced to the keywords the validator is meant to check, each with a
 * value of the right type. Whatever else a schema holds (unknown keywords, `format`, keywords of the
 * wrong type, refs that resolve nowhere or off the document, an invalid `pattern`) is left out, so it
 * accepts anything there: the model still reads the server's own schema. A pattern that needs a
 * backtracking engine is refused (LOUSHO_REGEX_UNSUPPORTED): it is never run.
 */

/** Most schema nodes one sanitized schema keeps (past it a node accepts anything). */
export const DEFAULT_MAX_NODES = 5000;
/** Deepest schema nesting kept (deeper schemas accept anything). */
export const MAX_DEPTH = 64;
/**
 * A property called `__proto__` is checked under this name: the validator's generated code cannot
 * address a `__proto__` key, so values and schemas are renamed on the way in and back on the way out.
 */
export const PROTO_ALIAS = '__proto__\u0000';

const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);
const COUNT_KEYWORDS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];
const NUMBER_KEYWORDS = ['minimum', 'maximum'];
const SCHEMA_KEYWORDS = ['additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems'];
const SCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf'];
const SCHEMA_MAP_KEYWORDS = ['properties', '$defs', 'definitions'];

type Schema = JsonObject | boolean;

export interface SanitizeOptions {
  maxNodes?: number;
  /** Names the schema's owner in errors ("MCP server 'x', tool 'y'"). */
  who?: string;
}

export function sanitizeSchema(root: unknown, options: SanitizeOptions = {}): Schema {
  const sanitizer = new Sanitizer(options.maxNodes ?? DEFAULT_MAX_NODES, options.who ?? 'The schema');
  const clean = sanitizer.schema(root, 0);
  sanitizer.dropDanglingRefs(clean);
  return clean;
}

class Sanitizer {
  #nodes = 0;
  readonly refs: JsonObject[] = [];

  constructor(
    readonly maxNodes: number,
    readonly who: string,
  ) {}

  schema(node: unknown, depth: number): Schema {
    if (typeof node === 'boolean') return node;
    if (!isJsonObject(node) || depth > MAX_DEPTH || ++this.#nodes > this.maxNodes) return true;
    const out: JsonObject = {};
    this.#types(node, out);
    this.#values(node, out);
    this.#numbers(node, out);
    if (typeof node.pattern === 'string' && this.#patternUsable(node.pattern)) out.pattern = node.pattern;
    for (const key of COUNT_KEYWORDS) if (isCount(node[key])) out[key] = node[key];
    if (Array.isArray(node.required)) out.required = [...new Set(node.required.filter((key): key is string => typeof key === 'string'))].map(aliasKey);
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
      out.$ref = node.$ref;
      this.refs.push(out);
    }
    for (const key of SCHEMA_KEYWORDS) if (isSchema(node[key])) out[key] = this.schema(node[key], depth + 1);
    for (const key of SCHEMA_LIST_KEYWORDS) {
      const list = node[key];
      const branches = Array.isArray(list) ? list.filter(isSchema) : [];
      if (branches.length > 0) out[key] = branches.map((branch) => this.schema(branch, depth + 1));
    }
    for (const key of SCHEMA_MAP_KEYWORDS) if (isJsonObject(node[key])) out[key] = this.#schemaMap(node[key] as JsonObject, depth, key === 'properties');
    if (isSchema(node.items)) out.items = this.schema(node.items, depth + 1);
    else if (Array.isArray(node.items)) out.items = node.items.map((item) => this.schema(item, depth + 1));
    // uniqueItems compares every pair of items unless they are typed as scalars (then it is linear):
    // kept only then; otherwise it is left to the server.
    if (node.uniqueItems === true && scalarTyped(out.items)) out.uniqueItems = true;
    if (isJsonObject(node.patternProperties)) out.patternProperties = this.#patternProperties(node.patternProperties, depth);
    // OpenAPI's `nullable` only means something next to `type`.
    if (node.nullable === true && out.type !== undefined) out.nullable = true;
    if (hasOwn(node, 'default') && node.default !== undefined) out.default = node.default;
    return out;
  }

  #types(node: JsonObject, out: JsonObject): void {
    const names = (Array.isArray(node.type) ? node.type : [node.type]).filter((name): name is string => typeof name === 'string' && TYPE_NAMES.has(name));
    if (names.length > 0) out.type = names.length === 1 ? names[0] : [...new Set(names)];
  }

  #values(node: JsonObject, out: JsonObject): void {
    if (Array.isArray(node.enum)) {
      // An empty enum accepts nothing.
      if (node.enum.length === 0) out.not = true;
      else out.enum = node.enum.map((value) => plainJson(value));
    }
    if (hasOwn(node, 'const') && node.const !== undefined) out.const = plainJson(node.const);
  }

  #numbers(node: JsonObject, out: JsonObject): void {
    for (const key of NUMBER_KEYWORDS) if (isNumber(node[key])) out[key] = node[key];
    if (isNumber(node.multipleOf) && node.multipleOf > 0) out.multipleOf = node.multipleOf;
    // Draft-04 wrote exclusive bounds as booleans next to minimum / maximum.
    for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
      const value = node[exclusive];
      if (isNumber(value)) out[exclusive] = value;
      else if (value === true && isNumber(node[bound])) {
        out[exclusive] = node[bound];
        delete out[bound];
      }
    }
  }

  #schemaMap(map: JsonObject, depth: number, isProperties: boolean): JsonObject {
    const out: JsonObject = {};
    for (const key of Object.keys(map)) {
      if (!isSchema(map[key])) continue;
      const name = isProperties ? aliasKey(key) : key;
      Object.defineProperty(out, name, { value: this.schema(map[key], depth + 1), enumerable: true, configurable: true, writable: true });
    }
    return out;
  }

  #patternProperties(map: JsonObject, depth: number): JsonObject {
    const out: JsonObject = {};
    for (const key of Object.keys(map)) if (isSchema(map[key]) && this.#patternUsable(key)) out[key] = this.schema(map[key], depth + 1);
    return out;
  }

  /** False for a pattern that is not a regular expression (ignored); throws for one that needs backtracking. */
  #patternUsable(pattern: string): boolean {
    try {
      compileLinearRegExp(pattern, { who: `${this.who}: the pattern` }).dispose();
      return true;
    } catch (error) {
      if (error instanceof SDKError && error.code === ERROR_CODES.LOUSHO_INVALID_INPUT) return false;
      throw error;
    }
  }

  /** A `$ref` that does not resolve to a schema in the sanitized document accepts anything. */
  dropDanglingRefs(root: Schema): void {
    for (const node of this.refs) if (!isSchema(resolvePointer(root, node.$ref as string))) delete node.$ref;
  }
}

/** A local reference: `#`, `#/$defs/name`, `#/definitions/name`, or any JSON pointer into the root. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const pointer = safeDecode(ref.slice(1));
  if (pointer === undefined) return undefined;
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = /^(0|[1-9]\d*)$/.test(key) ? node[Number(key)] : undefined;
    else if (isJsonObject(node) && hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

export function aliasKey(key: string): string {
  return key === '__proto__' ? PROTO_ALIAS : key;
}

/** A JSON value as plain objects and arrays (whatever prototype it came with), `__proto__` keys kept as keys. */
export function plainJson(value: unknown, rename: (key: string) => string = (key) => key): unknown {
  if (Array.isArray(value)) return value.map((item) => plainJson(item, rename));
  if (!isJsonObject(value)) return value;
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) Object.defineProperty(copy, rename(key), { value: plainJson(value[key], rename), enumerable: true, configurable: true, writable: true });
  return copy;
}

function scalarTyped(items: unknown): boolean {
  if (!isJsonObject(items)) return false;
  const types = Array.isArray(items.type) ? items.type : [items.type];
  return types.length > 0 && types.every((type) => type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' || type === 'null');
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'boolean' || isJsonObject(value);
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
