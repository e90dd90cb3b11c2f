import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { JSONSchema } from '@lousho/protocol';
import type { ToolSchema, ToolValidationIssue } from '@lousho/protocol';
import { isZod3Schema, zod3ToJSONSchema } from './zod3-json-schema.js';

/*
 * One adapter for every schema a tool accepts. Validation always goes through `~standard.validate`
 * (zod 4, zod >= 3.24, arktype, valibot, ... all implement it); JSON Schema comes from the schema
 * itself (`~standard.jsonSchema`, zod 4's `toJSONSchema()`) or, for zod 3, from its `_def` tree.
 * Nothing here imports zod: it is an optional peer and the root entry must load without it.
 */

/** Which family a schema belongs to; decides how its JSON Schema is produced. */
export type ToolSchemaKind = 'zod4' | 'zod3' | 'standard';

/** True for anything implementing Standard Schema v1 (`~standard.validate`). */
export function isToolSchema(value: unknown): value is ToolSchema {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return typeof props === 'object' && props !== null && typeof (props as { validate?: unknown }).validate === 'function';
}

/** Which schema library a tool schema comes from (`zod3`, `zod4` or a Standard Schema). */
export function toolSchemaKind(schema: ToolSchema): ToolSchemaKind {
  if ('_zod' in schema) return 'zod4';
  if (isZod3Schema(schema)) return 'zod3';
  return 'standard';
}

/** A value checked against a tool schema: the parsed value, or the issues. */
export type ToolSchemaValidation<T> = { ok: true; value: T } | { ok: false; issues: ToolValidationIssue[] };

/**
 * Validates `value` with the schema's own rules (defaults, coercions and transforms applied) and
 * returns the parsed value or the issues. A schema whose `validate` throws makes this reject.
 */
export async function validateToolSchema<S extends ToolSchema>(
  schema: S,
  value: unknown,
): Promise<ToolSchemaValidation<StandardSchemaV1.InferOutput<S>>> {
  const result = await schema['~standard'].validate(value);
  if (!result.issues) return { ok: true, value: result.value as StandardSchemaV1.InferOutput<S> };
  const issues = result.issues.map(toValidationIssue);
  // A library that fails without saying why still gets a readable issue.
  return { ok: false, issues: issues.length > 0 ? issues : [{ path: '', message: 'Invalid value' }] };
}

function toValidationIssue(issue: StandardSchemaV1.Issue): ToolValidationIssue {
  const message = typeof issue.message === 'string' && issue.message ? issue.message : 'Invalid value';
  return { path: formatIssuePath(issue.path), message };
}

const NEEDS_QUOTES = /[.[\]"'\s]/;

/**
 * Writes an issue path the way a developer would type it: object keys joined with `.`, array
 * indices as `[i]` (`items[0].name`). A key that is empty or contains `.`, `[`, `]`, a quote or
 * whitespace is written as `["key"]` so the path stays unambiguous. The root is `''`.
 */
export function formatIssuePath(path: StandardSchemaV1.Issue['path']): string {
  if (!path) return '';
  let out = '';
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'symbol') out += `[${key.toString()}]`;
    else if (key === '' || NEEDS_QUOTES.test(key)) out += `[${JSON.stringify(key)}]`;
    else out += out === '' ? key : `.${key}`;
  }
  return out;
}

// Conversions are pure functions of the schema object, and the loop asks once per step.
const jsonSchemaCache = new WeakMap<object, JSONSchema>();

/**
 * The JSON Schema of what the model must send (the schema's input side), for provider tool specs
 * and structured output. Cached per schema object; the result is frozen, so clone it before
 * changing it. Throws `SDKError` `LOUSHO_UNSUPPORTED_SCHEMA` when the schema cannot produce one.
 */
export function toolSchemaToJSONSchema(schema: ToolSchema): JSONSchema {
  const cached = jsonSchemaCache.get(schema);
  if (cached) return cached;
  const converted = deepFreeze(withoutMetaSchema(convertToJSONSchema(schema)));
  jsonSchemaCache.set(schema, converted);
  return converted;
}

function convertToJSONSchema(schema: ToolSchema): JSONSchema {
  if (!isToolSchema(schema)) {
    throw new SDKError(ERROR_CODES.LOUSHO_UNSUPPORTED_SCHEMA, 'Expected a schema (zod 3, zod 4 or another Standard Schema) but got ' + describeValue(schema) + '.', {
      hint: 'Pass a schema such as z.object({ ... }).',
    });
  }
  const kind = toolSchemaKind(schema);
  if (kind === 'zod3') return attempt(schema, () => zod3ToJSONSchema(schema));

  const converter = (schema['~standard'] as Partial<StandardJSONSchemaProps>).jsonSchema;
  if (converter && typeof converter.input === 'function') {
    return attempt(schema, () => {
      try {
        return converter.input({ target: 'draft-07' });
      } catch (err) {
        // Libraries may refuse a target they do not implement; 2020-12 is the other one they are asked to support.
        if (isUnsupportedTarget(err)) return converter.input({ target: 'draft-2020-12' });
        throw err;
      }
    });
  }

  const zodMethod = (schema as { toJSONSchema?: unknown }).toJSONSchema;
  if (kind === 'zod4' && typeof zodMethod === 'function') {
    return attempt(schema, () => (zodMethod as (params: object) => JSONSchema).call(schema, { io: 'input', target: 'draft-07' }));
  }

  const vendor = schema['~standard'].vendor;
  if (kind === 'zod4') {
    throw new SDKError(
      ERROR_CODES.LOUSHO_UNSUPPORTED_SCHEMA,
      'This zod 4 schema cannot describe itself as JSON Schema (zod/mini schemas and zod releases before 4.2 do not expose ~standard.jsonSchema).',
      {
        hint: "Build the schema with classic `zod` 4.2 or later, or register a descriptor { inputSchema, parameters: z.toJSONSchema(schema, { io: 'input' }), execute } that carries its JSON Schema.",
      },
    );
  }
  throw new SDKError(
    ERROR_CODES.LOUSHO_UNSUPPORTED_SCHEMA,
    `This ${vendor} schema does not expose ~standard.jsonSchema, so the model cannot be told its shape.`,
    {
      hint: "Use zod, arktype or another library that implements Standard JSON Schema, or register a descriptor { inputSchema, parameters: <JSON Schema>, execute }.",
    },
  );
}

interface StandardJSONSchemaProps {
  jsonSchema: { input: (options: { target: string; libraryOptions?: Record<string, unknown> }) => JSONSchema };
}

function attempt(schema: ToolSchema, convert: () => JSONSchema): JSONSchema {
  let result: unknown;
  try {
    result = convert();
  } catch (err) {
    if (err instanceof SDKError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new SDKError(ERROR_CODES.LOUSHO_UNSUPPORTED_SCHEMA, `This ${schema['~standard'].vendor} schema cannot be converted to JSON Schema: ${reason}`, {
      hint: 'Describe the arguments with JSON-compatible types (a string in ISO format instead of a Date, no functions, symbols or class instances), or use z.coerce / z.iso.* helpers.',
      cause: err,
    });
  }
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    throw new SDKError(ERROR_CODES.LOUSHO_UNSUPPORTED_SCHEMA, `This ${schema['~standard'].vendor} schema produced ${describeValue(result)} instead of a JSON Schema object.`, {
      hint: 'Report this to the schema library, or register a descriptor with a ready `parameters` JSON Schema.',
    });
  }
  return result as JSONSchema;
}

function isUnsupportedTarget(err: unknown): boolean {
  return err instanceof Error && /target/i.test(err.message);
}

/** Providers do not want `$schema`, and some reject unknown top-level keys. */
function withoutMetaSchema(schema: JSONSchema): JSONSchema {
  if (!('$schema' in schema)) return schema;
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Short description of a value for error messages (`a string`, `an array`, `null`, ...). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' || type === 'undefined' ? `an ${type}` : `a ${type}`;
}
