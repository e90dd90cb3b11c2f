import type { JSONSchema } from '@lousho/protocol';

/**
 * Input-side JSON Schema for a zod 3 schema, read from its `_def` tree.
 *
 * Why not `zod-to-json-schema`: it imports `zod/v3` at load time, so importing it from the root entry
 * would break every app that does not install zod (an optional peer) and every app on zod 3.24
 * (which has no `zod/v3` subpath). Reading `_def` needs no import at all. The output follows
 * `zod-to-json-schema`'s conventions (draft-07, `$refStrategy: 'none'`, input side of effects and
 * pipes) so providers see the same schemas either way.
 */
export function zod3ToJSONSchema(schema: unknown): JSONSchema {
  return convert(schema as Zod3Like, []);
}

/** True for a zod 3 schema (zod 4 schemas also expose `_def`, but always carry `_zod`). */
export function isZod3Schema(value: unknown): boolean {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  if ('_zod' in value) return false;
  const def = (value as { _def?: { typeName?: unknown } })._def;
  return typeof def === 'object' && def !== null && typeof def.typeName === 'string' && def.typeName.startsWith('Zod');
}

interface Zod3Def {
  typeName: string;
  description?: string;
  [key: string]: any;
}

interface Zod3Like {
  _def: Zod3Def;
  isOptional?: () => boolean;
}

interface Check {
  kind: string;
  value?: any;
  inclusive?: boolean;
  regex?: RegExp;
  version?: string;
}

function convert(schema: Zod3Like, lazyStack: unknown[]): JSONSchema {
  const def = schema._def;
  const out = convertDef(def, lazyStack);
  if (def.description !== undefined && out.description === undefined) return { ...out, description: def.description };
  return out;
}

function convertDef(def: Zod3Def, lazyStack: unknown[]): JSONSchema {
  const inner = (s: unknown) => convert(s as Zod3Like, lazyStack);
  switch (def.typeName) {
    case 'ZodString':
      return stringSchema(def.checks ?? []);
    case 'ZodNumber':
      return numberSchema(def.checks ?? []);
    case 'ZodBigInt':
      return { type: 'integer', format: 'int64' };
    case 'ZodBoolean':
      return { type: 'boolean' };
    case 'ZodDate':
      return { type: 'string', format: 'date-time' };
    case 'ZodNull':
      return { type: 'null' };
    case 'ZodUndefined':
    case 'ZodNever':
      return { not: {} };
    case 'ZodAny':
    case 'ZodUnknown':
    case 'ZodVoid':
    case 'ZodSymbol':
    case 'ZodNaN':
    case 'ZodFunction':
      return {};
    case 'ZodLiteral':
      return literalSchema(def.value);
    case 'ZodEnum':
      return { type: 'string', enum: [...(def.values as string[])] };
    case 'ZodNativeEnum':
      return nativeEnumSchema(def.values as Record<string, string | number>);
    case 'ZodObject':
      return objectSchema(def, inner);
    case 'ZodArray': {
      const out: JSONSchema = { type: 'array', items: inner(def.type) };
      if (def.exactLength) Object.assign(out, { minItems: def.exactLength.value, maxItems: def.exactLength.value });
      if (def.minLength) out.minItems = def.minLength.value;
      if (def.maxLength) out.maxItems = def.maxLength.value;
      return out;
    }
    case 'ZodTuple': {
      const items = (def.items as unknown[]).map(inner);
      const out: JSONSchema = { type: 'array', minItems: items.length, items };
      if (def.rest) out.additionalItems = inner(def.rest);
      else out.maxItems = items.length;
      return out;
    }
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return unionSchema(optionsOf(def), inner);
    case 'ZodIntersection':
      // Each side's `additionalProperties: false` would reject the other side's keys.
      return { allOf: [allowExtraKeys(inner(def.left)), allowExtraKeys(inner(def.right))] };
    case 'ZodRecord':
      return { type: 'object', additionalProperties: inner(def.valueType) };
    case 'ZodMap':
      return { type: 'array', items: { type: 'array', items: [inner(def.keyType), inner(def.valueType)], minItems: 2, maxItems: 2 } };
    case 'ZodSet':
      return { type: 'array', uniqueItems: true, items: inner(def.valueType) };
    case 'ZodNullable':
      return nullableSchema(def.innerType as Zod3Like, inner);
    case 'ZodDefault': {
      const out = inner(def.innerType);
      const value = jsonDefault(def.defaultValue);
      return value === undefined ? out : { ...out, default: value };
    }
    case 'ZodOptional':
    case 'ZodCatch':
    case 'ZodReadonly':
      return inner(def.innerType);
    case 'ZodPromise':
    case 'ZodBranded':
      return inner(def.type);
    case 'ZodEffects': // refine / transform / preprocess: the model sends the inner schema's input
      return inner(def.schema);
    case 'ZodPipeline': // input side of a pipe is its first schema
      return inner(def.in);
    case 'ZodLazy': {
      // A recursive schema is expanded once; its inner occurrence accepts anything. The lazy
      // itself is the identity to track: its getter may build a new schema on every call.
      if (lazyStack.includes(def)) return {};
      return convert(def.getter() as Zod3Like, [...lazyStack, def]);
    }
    default:
      return {};
  }
}

function stringSchema(checks: Check[]): JSONSchema {
  const out: JSONSchema = { type: 'string' };
  const patterns: string[] = [];
  for (const check of checks) {
    switch (check.kind) {
      case 'min':
        out.minLength = Math.max(check.value, (out.minLength as number | undefined) ?? 0);
        break;
      case 'max':
        out.maxLength = Math.min(check.value, (out.maxLength as number | undefined) ?? Infinity);
        break;
      case 'length':
        out.minLength = check.value;
        out.maxLength = check.value;
        break;
      case 'email':
        out.format = 'email';
        break;
      case 'url':
        out.format = 'uri';
        break;
      case 'uuid':
        out.format = 'uuid';
        break;
      case 'datetime':
        out.format = 'date-time';
        break;
      case 'date':
        out.format = 'date';
        break;
      case 'time':
        out.format = 'time';
        break;
      case 'duration':
        out.format = 'duration';
        break;
      case 'ip':
        if (check.version === 'v4') out.format = 'ipv4';
        else if (check.version === 'v6') out.format = 'ipv6';
        else out.anyOf = [{ format: 'ipv4' }, { format: 'ipv6' }];
        break;
      case 'base64':
        out.contentEncoding = 'base64';
        break;
      case 'regex':
        if (check.regex) patterns.push(check.regex.source);
        break;
      case 'cuid':
        patterns.push('^[cC][^\\s-]{8,}$');
        break;
      case 'startsWith':
        patterns.push(`^${escapeRegExp(String(check.value))}`);
        break;
      case 'endsWith':
        patterns.push(`${escapeRegExp(String(check.value))}$`);
        break;
      case 'includes':
        patterns.push(escapeRegExp(String(check.value)));
        break;
      default:
        break; // trim, toLowerCase, emoji, ...: nothing JSON Schema can say
    }
  }
  if (patterns.length === 1) out.pattern = patterns[0];
  else if (patterns.length > 1) out.allOf = patterns.map((pattern) => ({ pattern }));
  return out;
}

function numberSchema(checks: Check[]): JSONSchema {
  const out: JSONSchema = { type: 'number' };
  for (const check of checks) {
    switch (check.kind) {
      case 'int':
        out.type = 'integer';
        break;
      case 'min':
        if (check.inclusive) out.minimum = check.value;
        else out.exclusiveMinimum = check.value;
        break;
      case 'max':
        if (check.inclusive) out.maximum = check.value;
        else out.exclusiveMaximum = check.value;
        break;
      case 'multipleOf':
        out.multipleOf = check.value;
        break;
      default:
        break;
    }
  }
  return out;
}

function literalSchema(value: unknown): JSONSchema {
  if (value === null) return { type: 'null' };
  if (value === undefined) return { not: {} };
  if (typeof value === 'bigint') return { type: 'integer', const: Number(value) };
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return { type: typeof value, const: value };
  return {};
}

function nativeEnumSchema(values: Record<string, string | number>): JSONSchema {
  // TypeScript numeric enums map both ways; keep only the real values.
  const real = Object.keys(values)
    .filter((key) => typeof values[values[key] as string] !== 'number')
    .map((key) => values[key] as string | number);
  const types = [...new Set(real.map((v) => typeof v))];
  return { type: types.length === 1 ? types[0] : types, enum: real };
}

function objectSchema(def: Zod3Def, inner: (s: unknown) => JSONSchema): JSONSchema {
  const shape = (typeof def.shape === 'function' ? def.shape() : def.shape) as Record<string, Zod3Like>;
  const properties: Record<string, JSONSchema> = {};
  const required: string[] = [];
  for (const [key, prop] of Object.entries(shape)) {
    properties[key] = inner(prop);
    if (!acceptsUndefined(prop)) required.push(key);
  }
  const out: JSONSchema = { type: 'object', properties };
  if (required.length > 0) out.required = required;
  const catchall = def.catchall as Zod3Like | undefined;
  if (catchall && catchall._def.typeName !== 'ZodNever') out.additionalProperties = inner(catchall);
  else out.additionalProperties = def.unknownKeys === 'passthrough';
  return out;
}

/** Whether an object property may be left out: zod's own answer, or the wrappers that allow it. */
function acceptsUndefined(schema: Zod3Like): boolean {
  try {
    if (typeof schema.isOptional === 'function') return schema.isOptional();
  } catch {
    // An async refinement cannot be run synchronously: decide from the structure instead.
  }
  const def = schema._def;
  switch (def.typeName) {
    case 'ZodOptional':
    case 'ZodDefault':
    case 'ZodCatch':
    case 'ZodAny':
    case 'ZodUnknown':
    case 'ZodUndefined':
    case 'ZodVoid':
      return true;
    case 'ZodNullable':
    case 'ZodReadonly':
      return acceptsUndefined(def.innerType);
    case 'ZodEffects':
      return acceptsUndefined(def.schema);
    case 'ZodPipeline':
      return acceptsUndefined(def.in);
    case 'ZodBranded':
      return acceptsUndefined(def.type);
    default:
      return false;
  }
}

const PRIMITIVE_TYPES: Record<string, string> = {
  ZodString: 'string',
  ZodNumber: 'number',
  ZodBigInt: 'integer',
  ZodBoolean: 'boolean',
  ZodNull: 'null',
};

/** A primitive without checks, which JSON Schema can fold into a `type` array. */
function plainPrimitive(schema: Zod3Like): string | undefined {
  const def = schema._def;
  const type = PRIMITIVE_TYPES[def.typeName];
  return type !== undefined && !(def.checks as unknown[] | undefined)?.length ? type : undefined;
}

function optionsOf(def: Zod3Def): Zod3Like[] {
  return def.options instanceof Map ? [...(def.options as Map<unknown, Zod3Like>).values()] : [...(def.options as Iterable<Zod3Like>)];
}

/** Unions read best folded: plain primitives into a `type` array, literals and enums into one `enum`. */
function unionSchema(options: Zod3Like[], inner: (s: unknown) => JSONSchema): JSONSchema {
  const primitives = options.map(plainPrimitive);
  if (options.length > 0 && primitives.every((t) => t !== undefined)) {
    const types = [...new Set(primitives as string[])];
    return { type: types.length > 1 ? types : types[0] };
  }
  if (options.length > 0 && options.every((o) => o._def.typeName === 'ZodLiteral' && o._def.description === undefined)) {
    const values = options.map((o) => o._def.value as unknown);
    const types = values.map(literalType);
    if (types.every((t) => t !== undefined)) {
      const unique = [...new Set(types as string[])];
      return { type: unique.length > 1 ? unique : unique[0], enum: [...new Set(values)] };
    }
  }
  if (options.length > 0 && options.every((o) => o._def.typeName === 'ZodEnum')) {
    return { type: 'string', enum: [...new Set(options.flatMap((o) => o._def.values as string[]))] };
  }
  return { anyOf: options.map(inner) };
}

function literalType(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return 'integer';
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? typeof value : undefined;
}

function nullableSchema(innerSchema: Zod3Like, inner: (s: unknown) => JSONSchema): JSONSchema {
  const primitive = plainPrimitive(innerSchema);
  if (primitive !== undefined) {
    const description = innerSchema._def.description;
    return { type: [primitive, 'null'], ...(description !== undefined ? { description } : {}) };
  }
  return { anyOf: [inner(innerSchema), { type: 'null' }] };
}

function allowExtraKeys(schema: JSONSchema): JSONSchema {
  if (schema.additionalProperties !== false) return schema;
  const { additionalProperties: _closed, ...open } = schema;
  return open;
}

function jsonDefault(factory: unknown): unknown {
  try {
    const value: unknown = typeof factory === 'function' ? (factory as () => unknown)() : factory;
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
