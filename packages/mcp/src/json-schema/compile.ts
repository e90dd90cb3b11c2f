import { compileLinearRegExp, ERROR_CODES, SDKError } from '@lousho/core';
import { Ajv, type ErrorObject } from 'ajv';
import { checkValidationCost } from './cost.js';
import { PROTO_ALIAS, aliasKey, plainJson, sanitizeSchema, type SanitizeOptions } from './sanitize.js';

/** What checking one value gives: the value with defaults filled in, or why it does not fit. */
export type ValidationResult = { ok: true; value: unknown } | { ok: false; issues: { message: string; path: (string | number)[] }[] };

// Patterns run on RE2 (they were checked when the schema was sanitized, so this does not throw).
const linearRegExp = Object.assign((pattern: string) => compileLinearRegExp(pattern), { code: 'linear-regexp' });

// One validator compiler for every schema: refs are never inlined (a chain of refs compiles once per
// definition, not once per path), formats are not checked (docs/mcp.md), and only own properties count.
const ajv = new Ajv({
  strict: false,
  validateSchema: false,
  validateFormats: false,
  useDefaults: true,
  ownProperties: true,
  inlineRefs: false,
  allErrors: false,
  code: { regExp: linearRegExp as never },
});

/**
 * A compiled check of `schema` (sanitized first, see sanitize.ts). Throws `SDKError`:
 * LOUSHO_REGEX_UNSUPPORTED for a pattern that needs backtracking, LOUSHO_UNSUPPORTED_SCHEMA when
 * checking a value would not be linear in the value (cost.ts) or the validator cannot be built
 * (e.g. a runtime that forbids generated code).
 */
export function compileValidator(schema: unknown, options: SanitizeOptions = {}): (value: unknown) => ValidationResult {
  const clean = sanitizeSchema(schema, options);
  const key = JSON.stringify(clean);
  let validate = compiled.get(key);
  if (!validate) {
    // Refused unless checking a value stays linear in the value (see cost.ts).
    checkValidationCost(clean, options.who);
    validate = compileClean(clean, options.who);
    compiled.set(key, validate);
    // Many tools share a schema (`{ "type": "object" }`): compiled once, in a small cache.
    if (compiled.size > COMPILED_CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
  }
  const check = validate;
  return (input) => {
    // Checked (and filled with defaults) on a plain copy: whatever prototype the input has, and
    // `__proto__` keys stay keys.
    const copy = plainJson(input, aliasKey);
    if (check(copy)) return { ok: true, value: plainJson(copy, restoreKey) };
    return { ok: false, issues: (check.errors ?? []).map(toIssue) };
  };
}

type Compiled = ReturnType<Ajv['compile']>;
const compiled = new Map<string, Compiled>();
const COMPILED_CACHE_SIZE = 200;

function compileClean(clean: ReturnType<typeof sanitizeSchema>, who = 'The schema'): Compiled {
  try {
    return ajv.compile(clean);
  } catch (error) {
    throw new SDKError(ERROR_CODES.LOUSHO_UNSUPPORTED_SCHEMA, `${who} could not be compiled into a validator: ${error instanceof Error ? error.message : String(error)}`, {
      hint: 'Simplify the schema; in a runtime that forbids generated code (eval), schema validation is not available.',
      cause: error,
    });
  } finally {
    // The compiled function is all that is kept; the compiler's own cache would grow with every schema.
    if (typeof clean === 'object') ajv.removeSchema(clean);
  }
}

function restoreKey(key: string): string {
  return key === PROTO_ALIAS ? '__proto__' : key;
}

function toIssue(error: ErrorObject): { message: string; path: (string | number)[] } {
  const path = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map((part) => restoreKey(part.replace(/~1/g, '/').replace(/~0/g, '~')));
  if (error.keyword === 'required') path.push(restoreKey(String((error.params as { missingProperty?: unknown }).missingProperty)));
  if (error.keyword === 'additionalProperties') path.push(restoreKey(String((error.params as { additionalProperty?: unknown }).additionalProperty)));
  return { message: messageOf(error), path };
}

function messageOf(error: ErrorObject): string {
  switch (error.keyword) {
    case 'oneOf':
      return (error.params as { passingSchemas?: unknown }).passingSchemas ? 'Matches more than one of the allowed shapes (oneOf)' : 'Matches none of the allowed shapes (oneOf)';
    case 'required':
      return 'Required';
    case 'additionalProperties':
      return 'Not an allowed property';
    case 'pattern':
      return `Must match the pattern ${String((error.params as { pattern?: unknown }).pattern)}`;
    default:
      return capitalize(error.message ?? 'Invalid value');
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
