import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Message } from '@lousho/protocol';
import { validateToolSchema } from '../../tools/schema.js';
import { stripJsonFence } from '../../utils/json-fence.js';

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

/** The message of the one repair step: what was wrong, and the request to answer again. */
export function repairMessage(error: OutputError): Message {
  return Object.freeze({
    role: 'user',
    content: `Your reply did not match the required JSON schema: ${error.message}. Reply again with only a JSON object that matches the schema.`,
    metadata: { outputRepair: true },
  }) as Message;
}
