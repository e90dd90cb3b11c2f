import { z } from 'zod/v4';
import { compileValidator } from './compile.js';

/*
 * JSON Schema → a zod schema, for validating a model's arguments before an MCP server sees them.
 * The model itself is shown the server's own schema. The check is a compiled JSON Schema validator
 * (ajv): its time is linear in the schema and the value, however the schema nests (a nested zod
 * union re-ran branches, doubling per level), and patterns run on RE2. See docs/mcp.md, "Arguments".
 */

/** Options of `jsonSchemaToZod()`. */
export interface JsonSchemaToZodOptions {
  /**
   * Most schema nodes kept; past it the rest accepts anything, so a hostile schema cannot take
   * unbounded compile time or memory. Default 5000.
   */
  maxNodes?: number;
  /** Names the schema's owner in errors (default "The schema"). */
  who?: string;
}

/**
 * Converts a JSON Schema (draft-07 / 2019-09 / 2020-12 keywords) into a zod schema that gives a JSON
 * Schema validator's verdict and fills in defaults. Unknown or malformed keywords accept anything.
 * Throws `SDKError` with LOUSHO_REGEX_UNSUPPORTED when a `pattern` needs backtracking (backreferences,
 * lookaround), and LOUSHO_UNSUPPORTED_SCHEMA when the validator cannot be compiled.
 */
export function jsonSchemaToZod(schema: unknown, options: JsonSchemaToZodOptions = {}): z.ZodType {
  const validate = compileValidator(schema, options);
  return z.any().transform((input, ctx) => {
    const result = validate(input);
    if (result.ok) return result.value;
    for (const issue of result.issues) ctx.issues.push({ code: 'custom', message: issue.message, path: issue.path, input });
    return z.NEVER;
  });
}
