import { z } from 'zod/v4';
import { cloneJson, hasOwn, isJsonObject, jsonEqual, type JsonObject } from './json-value.js';

/*
 * JSON Schema → zod, for validating a model's arguments before an MCP server sees them. The model
 * itself is shown the server's own schema; this only has to give the same verdict a JSON Schema
 * validator would, for the keywords MCP servers use (see docs/mcp.md, "Schema support"). Where a
 * schema is ambiguous or broken the conversion is permissive (`z.any()`), and it never throws.
 */

/** Options of `jsonSchemaToZod()`. */
export interface JsonSchemaToZodOptions {
  /**
   * Most zod schemas one conversion builds (each `$ref` expansion counts its own). Past it the rest
   * is `z.any()`, so a hostile schema cannot take unbounded time or memory. Default 5000.
   */
  maxNodes?: number;
}

type Zod = z.ZodType;

const TYPE_NAMES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'] as const;
type TypeName = (typeof TYPE_NAMES)[number];

const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern'];
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];
const ARRAY_KEYWORDS = ['items', 'minItems', 'maxItems'];
const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties'];
const MAX_DEPTH = 64;

/**
 * Converts a JSON Schema (draft-07 / 2019-09 / 2020-12 keywords) into a zod schema. Never throws:
 * what it cannot express is accepted as is.
 */
export function jsonSchemaToZod(schema: unknown, options: JsonSchemaToZodOptions = {}): Zod {
  try {
    const inner = new Converter(schema, options.maxNodes ?? 5000).convert(schema, 0);
    // Values are checked as null-prototype copies, so a property named `constructor` or
    // `__proto__` is only ever the value's own. The result is the input as sent plus the defaults
    // zod filled in (zod's own output would drop a `__proto__` key).
    return z.any().transform((input, ctx) => {
      const result = inner.safeParse(toNullPrototype(input));
      if (result.success) return withDefaults(plainJson(input), result.data);
      for (const issue of result.error.issues) ctx.issues.push({ ...issue, input } as never);
      return z.NEVER;
    });
  } catch {
    // Nothing in a schema should get here; if something does, the tool stays usable.
    return z.any();
  }
}

class Converter {
  #nodes = 0;
  readonly #expanding: string[] = [];

  constructor(
    readonly root: unknown,
    readonly maxNodes: number,
  ) {}

  convert(schema: unknown, depth: number): Zod {
    if (schema === false) return z.never();
    if (!isJsonObject(schema)) return z.any();
    if (++this.#nodes > this.maxNodes || depth > MAX_DEPTH) return z.any();
    const parts: Zod[] = [];

    if (typeof schema.$ref === 'string') parts.push(this.#ref(schema.$ref, depth));
    const typed = this.#typed(schema, depth);
    if (typed) parts.push(typed);
    if (Array.isArray(schema.enum)) parts.push(oneOfValues(schema.enum));
    if (hasOwn(schema, 'const')) parts.push(oneOfValues([schema.const]));
    if (Array.isArray(schema.anyOf) && schema.anyOf.length > 0) parts.push(this.#anyOf(schema.anyOf, depth));
    if (Array.isArray(schema.oneOf) && schema.oneOf.length > 0) parts.push(this.#oneOf(schema.oneOf, depth));
    if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) parts.push(this.convert(branch, depth + 1));

    if (parts.length === 0) return z.any();
    return parts.length === 1 ? parts[0]! : allOf(parts);
  }

  #ref(ref: string, depth: number): Zod {
    // One expansion of a recursive reference: its inner occurrence accepts anything.
    if (this.#expanding.includes(ref)) return z.any();
    const target = resolvePointer(this.root, ref);
    if (target === undefined) return z.any();
    this.#expanding.push(ref);
    try {
      return this.convert(target, depth + 1);
    } finally {
      this.#expanding.pop();
    }
  }

  #anyOf(branches: unknown[], depth: number): Zod {
    // `anyOf: [X, { type: 'null' }]` is how generators spell an optional value: X.nullable().
    if (branches.length === 2) {
      const nullAt = branches.findIndex(isNullOnly);
      if (nullAt >= 0) return this.convert(branches[1 - nullAt], depth + 1).nullable();
    }
    return unionOf(branches.map((branch) => this.convert(branch, depth + 1)));
  }

  #oneOf(branches: unknown[], depth: number): Zod {
    const converted = branches.map((branch) => this.convert(branch, depth + 1));
    // Exactly one branch may match: a union, plus a check that no second branch does.
    return unionOf(converted).superRefine((value, ctx) => {
      let matches = 0;
      for (const branch of converted) if (branch.safeParse(value).success && ++matches > 1) break;
      if (matches > 1) ctx.addIssue({ code: 'custom', message: 'Matches more than one of the allowed shapes (oneOf)' });
    });
  }

  /** The `type` keyword and the keywords of each type; undefined when the schema says nothing about types. */
  #typed(schema: JsonObject, depth: number): Zod | undefined {
    let types = typeList(schema.type);
    if (types && schema.nullable === true && !types.includes('null')) types = [...types, 'null'];
    if (!types) {
      // No `type`: each keyword constrains only values of its own type, every other value passes.
      const constrains = [STRING_KEYWORDS, NUMBER_KEYWORDS, ARRAY_KEYWORDS, OBJECT_KEYWORDS].some((keys) => keys.some((key) => hasOwn(schema, key)));
      if (!constrains) return undefined;
      types = ['string', 'number', 'boolean', 'null', 'array', 'object'];
    }
    if (types.includes('number')) types = types.filter((type) => type !== 'integer');
    return unionOf(types.map((type) => this.#ofType(type, schema, depth)));
  }

  #ofType(type: TypeName, schema: JsonObject, depth: number): Zod {
    switch (type) {
      case 'string':
        return stringSchema(schema);
      case 'number':
        return numberSchema(schema);
      case 'integer':
        return numberSchema(schema).refine(Number.isInteger, { message: 'Expected an integer' });
      case 'boolean':
        return z.boolean();
      case 'null':
        return z.null();
      case 'array':
        return this.#array(schema, depth);
      case 'object':
        return this.#object(schema, depth);
    }
  }

  #array(schema: JsonObject, depth: number): Zod {
    // Tuple `items` (an array of schemas) is not checked per position.
    const items = isJsonObject(schema.items) || typeof schema.items === 'boolean' ? this.convert(schema.items, depth + 1) : z.any();
    let array = z.array(items);
    if (isCount(schema.minItems)) array = array.min(schema.minItems);
    if (isCount(schema.maxItems)) array = array.max(schema.maxItems);
    return array;
  }

  #object(schema: JsonObject, depth: number): Zod {
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : []);
    const shape: Record<string, Zod> = {};
    const properties = isJsonObject(schema.properties) ? schema.properties : {};
    // zod's objects do not handle a `__proto__` key (it is checked below, on its own).
    let protoKey: Zod | undefined;
    for (const key of Object.keys(properties)) {
      const property = properties[key];
      let converted = this.convert(property, depth + 1);
      if (key === '__proto__') {
        protoKey = converted;
        continue;
      }
      if (!required.has(key)) {
        const fallback = isJsonObject(property) && hasOwn(property, 'default') ? property.default : undefined;
        converted = fallback !== undefined ? converted.default(() => cloneJson(fallback)) : converted.optional();
      }
      shape[key] = converted;
    }
    const extra = schema.additionalProperties;
    const extraSchema = isJsonObject(extra) ? this.convert(extra, depth + 1) : undefined;
    const object = extra === false ? z.strictObject(shape) : extraSchema ? z.looseObject(shape).catchall(extraSchema) : z.looseObject(shape);
    // A required key without a property schema must be there too (as an additional property).
    const unshaped = [...required].filter((key) => !hasOwn(shape, key) && key !== '__proto__');
    if (unshaped.length === 0 && !protoKey && !required.has('__proto__')) return object;
    // Checked on the input: zod's output has no `__proto__` key.
    const keys = z.any().superRefine((value, ctx) => {
      if (!isJsonObject(value)) return;
      const own = value as object;
      for (const key of unshaped) if (!hasOwn(own, key)) ctx.addIssue({ code: 'custom', path: [key], message: 'Required' });
      if (!hasOwn(own, '__proto__')) {
        if (required.has('__proto__')) ctx.addIssue({ code: 'custom', path: ['__proto__'], message: 'Required' });
        return;
      }
      const checker = protoKey ?? (extra === false ? z.never() : extraSchema);
      const result = checker?.safeParse((own as JsonObject)['__proto__']);
      if (result && !result.success) ctx.addIssue({ code: 'custom', path: ['__proto__'], message: result.error.issues[0]?.message ?? 'Invalid value' });
    });
    return keys.pipe(object);
  }
}

function stringSchema(schema: JsonObject): Zod {
  let string: Zod = z.string();
  // JSON Schema counts characters (code points), not UTF-16 units.
  const { minLength, maxLength, pattern } = schema;
  if (isCount(minLength)) string = string.refine((s) => codePoints(s as string) >= minLength, { message: `Must have at least ${minLength} characters` });
  if (isCount(maxLength)) string = string.refine((s) => codePoints(s as string) <= maxLength, { message: `Must have at most ${maxLength} characters` });
  const regex = typeof pattern === 'string' ? compilePattern(pattern) : undefined;
  if (regex) string = string.refine((s) => regex.test(s as string), { message: `Must match the pattern ${String(pattern)}` });
  return string;
}

function numberSchema(schema: JsonObject): z.ZodNumber {
  let number = z.number();
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (isNumber(minimum)) number = exclusiveMinimum === true ? number.gt(minimum) : number.gte(minimum);
  if (isNumber(maximum)) number = exclusiveMaximum === true ? number.lt(maximum) : number.lte(maximum);
  if (isNumber(exclusiveMinimum)) number = number.gt(exclusiveMinimum);
  if (isNumber(exclusiveMaximum)) number = number.lt(exclusiveMaximum);
  return number;
}

/** `enum` and `const`: a literal union for primitives, a deep comparison otherwise. */
function oneOfValues(values: unknown[]): Zod {
  if (values.length === 0) return z.never();
  if (values.every((value) => typeof value === 'string')) return z.enum(values as [string, ...string[]]);
  if (values.every(isPrimitive)) return unionOf(values.map((value) => z.literal(value as string | number | boolean | null)));
  return z.any().refine((input) => values.some((value) => jsonEqual(value, input)), {
    message: `Must be one of ${truncate(JSON.stringify(values), 200)}`,
  });
}

/**
 * Every part must accept the value, each on its own (zod's intersection would let one object part
 * accept keys another part forbids). The parts' outputs are merged, so defaults from any part apply.
 */
function allOf(parts: Zod[]): Zod {
  return z.any().transform((value, ctx) => {
    let merged: unknown = value;
    let failed = false;
    for (const part of parts) {
      const result = part.safeParse(value);
      if (result.success) {
        merged = mergeOutputs(merged, result.data);
        continue;
      }
      failed = true;
      for (const issue of result.error.issues) ctx.issues.push({ code: 'custom', message: issue.message, path: issue.path, input: value });
    }
    return failed ? z.NEVER : merged;
  });
}

/** Two outputs of the same input: objects and arrays member by member, `first` wherever both have a value. */
function mergeOutputs(first: unknown, second: unknown): unknown {
  if (isJsonObject(first) && isJsonObject(second)) {
    const merged = Object.create(null) as JsonObject;
    for (const key of Object.keys(second)) merged[key] = second[key];
    for (const key of Object.keys(first)) merged[key] = hasOwn(second, key) ? mergeOutputs(first[key], second[key]) : first[key];
    return merged;
  }
  if (Array.isArray(first) && Array.isArray(second) && first.length === second.length) return first.map((item, i) => mergeOutputs(item, second[i]));
  return first;
}

function unionOf(options: Zod[]): Zod {
  return options.length === 1 ? options[0]! : z.union(options as [Zod, Zod, ...Zod[]]);
}

function typeList(type: unknown): TypeName[] | undefined {
  const names = (Array.isArray(type) ? type : [type]).filter((name): name is TypeName => (TYPE_NAMES as readonly unknown[]).includes(name));
  return names.length > 0 ? [...new Set(names)] : undefined;
}

function isNullOnly(schema: unknown): boolean {
  return isJsonObject(schema) && schema.type === 'null' && Object.keys(schema).every((key) => key === 'type' || key === 'description' || key === 'title');
}

/** A local reference: `#`, `#/$defs/name`, `#/definitions/name`, or any JSON pointer into the root. */
function resolvePointer(root: unknown, ref: string): unknown {
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

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** A pattern the way JSON Schema validators read it (Unicode mode), or undefined when it is not a valid regex. */
function compilePattern(pattern: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // Try without the Unicode flag, then give up on the pattern.
    }
  }
  return undefined;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function toNullPrototype(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toNullPrototype);
  if (!isJsonObject(value)) return value;
  const copy = Object.create(null) as JsonObject;
  for (const key of Object.keys(value)) copy[key] = toNullPrototype(value[key]);
  return copy;
}

/** `input` with the members `output` has and it lacks (defaults), at every level. */
function withDefaults(input: unknown, output: unknown): unknown {
  if (Array.isArray(input) && Array.isArray(output) && input.length === output.length) return input.map((item, i) => withDefaults(item, output[i]));
  if (!isJsonObject(input) || !isJsonObject(output)) return input;
  for (const key of Object.keys(output)) {
    const value = hasOwn(input, key) ? withDefaults(input[key], output[key]) : plainJson(output[key]);
    Object.defineProperty(input, key, { value, enumerable: true, configurable: true, writable: true });
  }
  return input;
}

function plainJson(value: unknown): unknown {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}
