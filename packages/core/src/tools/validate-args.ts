import { truncateMessage } from '@lousho/protocol';
import { ToolArgumentsValidationError, toolErrorResult } from './errors.js';
import { argumentSchemaOf } from './resolve-tool.js';
import { validateToolSchema } from './schema.js';
import type { ToolDescriptor } from '@lousho/protocol';
import type { ToolErrorResult, ToolValidationIssue } from '@lousho/protocol';

/** Arguments parsed against a schema: the parsed value, or the issues. */
export type ParsedToolArguments = { ok: true; value: unknown } | { ok: false; issues: ToolValidationIssue[] };

/** A tool call's arguments checked against its input schema: the parsed arguments, or the `validation` error result the model gets. */
export type ToolArgumentsValidation<Args = unknown> = { ok: true; args: Args } | { ok: false; error: ToolErrorResult };

/**
 * Reads the raw JSON text a model produced for a call. Blank text means "no arguments" (`{}`);
 * text that is not JSON fails with one root issue saying so, in the same shape as a schema mismatch.
 */
export function parseToolArguments(raw: string): ParsedToolArguments {
  const text = raw.replace(/^\uFEFF/, '').trim();
  if (text === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      issues: [{ path: '', message: truncateMessage(`Arguments are not valid JSON (${reason}). Send the arguments as one JSON object, e.g. {"key": "value"}.`, 500) }],
    };
  }
}

/**
 * Parses (when given the raw text) and validates a call's arguments against the tool's schema,
 * returning the parsed value (defaults, coercions and transforms applied) or the error result the
 * model gets. Tools without a schema get their arguments unchanged. A schema that itself throws
 * while validating is a bug in the tool, reported as an `execution` error.
 */
export async function validateToolArguments<Args = unknown>(
  tool: ToolDescriptor<Args>,
  rawOrParsed: unknown,
  toolName: string = tool.name ?? 'unknown',
): Promise<ToolArgumentsValidation<Args>> {
  let value = rawOrParsed;
  if (typeof rawOrParsed === 'string') {
    const parsed = parseToolArguments(rawOrParsed);
    if (!parsed.ok) return { ok: false, error: toolErrorResult({ toolName, error: new ToolArgumentsValidationError(toolName, parsed.issues) }) };
    value = parsed.value;
  }
  const schema = argumentSchemaOf(tool);
  if (!schema) return { ok: true, args: value as Args };
  try {
    const checked = await validateToolSchema(schema, value);
    if (checked.ok) return { ok: true, args: checked.value as Args };
    return { ok: false, error: toolErrorResult({ toolName, error: new ToolArgumentsValidationError(toolName, checked.issues) }) };
  } catch (err) {
    return { ok: false, error: toolErrorResult({ toolName, error: err, kind: 'execution' }) };
  }
}
