import { splitArtifacts, withArtifacts } from './artifacts.js';
import { ToolOutputValidationError, toolErrorResult } from './errors.js';
import { isToolSchema, validateToolSchema } from './schema.js';
import type { ToolDescriptor } from '@lousho/protocol';
import type { ToolErrorResult } from '@lousho/protocol';

/** A tool's result checked against its `outputSchema`: the result, or the `output-validation` error result. */
export type ToolOutputValidation = { ok: true; result: unknown } | { ok: false; error: ToolErrorResult };

/**
 * Checks a tool's result against its `outputSchema`. On success `result` is the parsed value (still
 * wrapped with its artifacts when it had any); on a mismatch `error` is an `output-validation`
 * result naming the issues. Tools without an `outputSchema` pass unchanged.
 */
export async function validateToolOutput(tool: ToolDescriptor, result: unknown, toolName: string = tool.name ?? 'unknown'): Promise<ToolOutputValidation> {
  if (!isToolSchema(tool.outputSchema)) return { ok: true, result };
  const { value, artifacts } = splitArtifacts(result);
  try {
    const checked = await validateToolSchema(tool.outputSchema, value);
    if (!checked.ok) return { ok: false, error: toolErrorResult({ toolName, error: new ToolOutputValidationError(toolName, checked.issues) }) };
    return { ok: true, result: artifacts ? withArtifacts(checked.value, artifacts) : checked.value };
  } catch (err) {
    return { ok: false, error: toolErrorResult({ toolName, error: err, kind: 'execution' }) };
  }
}
