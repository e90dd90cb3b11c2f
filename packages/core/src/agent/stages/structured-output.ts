import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Message } from '@lousho/protocol';
import { validateToolSchema } from '../../tools/schema.js';

/** Why a reply is not the structured output the agent's `output` schema asks for. */
export interface OutputError {
  message: string;
  issues: { path: string; message: string }[];
}

/** The stage "structured output": the final reply parsed as JSON (a ```json fence allowed) and checked against `output`. */
export async function checkOutput(output: StandardSchemaV1, text: string): Promise<{ ok: true; value: unknown } | { ok: false; error: OutputError }> {
  let value: unknown;
  try {
    value = JSON.parse(stripJsonFence(text));
  } catch {
    return { ok: false, error: { message: 'The reply is not valid JSON', issues: [{ path: '', message: 'Expected a JSON object' }] } };
  }
  const checked = await validateToolSchema(output, value);
  if (checked.ok) return { ok: true, value: checked.value };
  const summary = checked.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  return { ok: false, error: { message: `The reply does not match the output schema (${summary})`, issues: checked.issues } };
}

/**
 * Models often wrap JSON in a ```json fence even in JSON mode. Plain string operations, not a
 * regex: a lazy group between two `\s*` takes quadratic time on a reply of many spaces.
 */
export function stripJsonFence(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length < 6 || !trimmed.startsWith('```') || !trimmed.endsWith('```')) return trimmed;
  const inner = trimmed.slice(3, -3);
  return (inner.slice(0, 4).toLowerCase() === 'json' ? inner.slice(4) : inner).trim();
}

/** The message of the one repair step: what was wrong, and the request to answer again. */
export function repairMessage(error: OutputError): Message {
  return Object.freeze({
    role: 'user',
    content: `Your reply did not match the required JSON schema: ${error.message}. Reply again with only a JSON object that matches the schema.`,
    metadata: { outputRepair: true },
  }) as Message;
}
