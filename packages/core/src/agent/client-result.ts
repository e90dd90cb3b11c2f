import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { validateToolOutput } from '../tools/validate-output.js';
import type { ApprovalRecord } from '@lousho/protocol';
import type { ToolRegistry } from '../tools/registry.js';
import type { ApprovalDecision } from './approval-resume.js';

type ClientDecision = Extract<ApprovalDecision, { kind: 'client' }>;

/** The longest error message a page may send for a browser tool (what the model sees is capped further). */
const MAX_CLIENT_ERROR_LENGTH = 2_000;

/**
 * What the page sent for a browser tool's call, checked before anything is recorded: a `result`
 * must match the tool's `outputSchema` (the parsed value goes on), an `error` must be a short
 * string. A failing result throws `LOUSHO_INVALID_TOOL_OUTPUT` naming the issues; the approval
 * stays pending, so the page can send a good one.
 */
export async function checkClientDecision(record: ApprovalRecord, decision: ClientDecision, tools: () => Promise<ToolRegistry>): Promise<ClientDecision> {
  const call = decision.toolCallId !== undefined ? { toolCallId: decision.toolCallId } : {};
  if (decision.error !== undefined) {
    if (typeof decision.error !== 'string' || decision.error.length === 0 || decision.error.length > MAX_CLIENT_ERROR_LENGTH) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, `A browser tool's error must be a message of 1 to ${MAX_CLIENT_ERROR_LENGTH} characters.`, {
        hint: 'Send { error: "what went wrong" }, or the result.',
      });
    }
    return { kind: 'client', error: decision.error, ...call };
  }
  // (Of another kind, or for another call: the claim says so, changing nothing.)
  if (record.kind !== 'client' || (decision.toolCallId !== undefined && decision.toolCallId !== record.toolCallId)) return decision;
  // (A call waiting in a sub-agent: the tool is looked up in the lead's tools; one only the sub-agent has is not checked here.)
  const tool = (await tools()).get(record.toolName);
  if (!tool) return { kind: 'client', result: decision.result, ...call };
  const checked = await validateToolOutput(tool, decision.result, record.toolName);
  if (!checked.ok) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_TOOL_OUTPUT, `The result sent for '${record.toolName}' does not match its outputSchema: ${checked.error.message}`, {
      hint: "Send a result that matches the tool's outputSchema; the call is still waiting for it.",
    });
  }
  return { kind: 'client', result: checked.result, ...call };
}
