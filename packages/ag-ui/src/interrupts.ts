import type { PendingApprovalInfo } from '@lousho/core';
import type { Interrupt, ResumeEntry } from '@ag-ui/core';
import { subagentRunIdOf } from './subagent-ids.js';
import { ERROR_CODES } from '@lousho/core';
import { AgUiRequestError, invalidInput } from './errors.js';

/** `Interrupt.reason` of a tool call waiting for approval, of an `ask_question` call, and of a browser tool's call waiting for the client's result. */
export const INTERRUPT_REASONS = { tool: 'tool_approval', question: 'question', client: 'client_tool' } as const;

const APPROVAL_SCHEMA = {
  type: 'object',
  properties: { approved: { type: 'boolean' }, note: { type: 'string', maxLength: 2000 } },
  required: ['approved'],
  additionalProperties: false,
};

const ANSWER_SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string', minLength: 1, maxLength: 10000 } },
  required: ['answer'],
  additionalProperties: false,
};

const CLIENT_RESULT_SCHEMA = {
  type: 'object',
  properties: { result: {}, error: { type: 'string', minLength: 1, maxLength: 2000 } },
  oneOf: [{ required: ['result'] }, { required: ['error'] }],
  additionalProperties: false,
};

const RESPONSE_SCHEMAS = { tool: APPROVAL_SCHEMA, question: ANSWER_SCHEMA, client: CLIENT_RESULT_SCHEMA } as const;

/** What the interrupt asks the user (or, for a browser tool, the client) to do. */
function messageOf(approval: PendingApprovalInfo): string {
  if (approval.kind === 'question') return approval.question ?? 'The agent asks a question.';
  if (approval.kind === 'client') return `Run ${approval.displayName} in the client and send its result.`;
  return approval.displayName.endsWith('?') ? approval.displayName : `Approve ${approval.displayName}?`;
}

/** A paused call as an AG-UI interrupt: its id is the approval id a resume entry answers. */
export function interruptOf(approval: PendingApprovalInfo): Interrupt {
  return {
    id: approval.approvalId,
    reason: INTERRUPT_REASONS[approval.kind],
    message: messageOf(approval),
    toolCallId: approval.toolCallId,
    responseSchema: RESPONSE_SCHEMAS[approval.kind],
    metadata: { toolName: approval.toolName, displayName: approval.displayName, args: approval.args, ...(approval.subagent && { subagent: approval.subagent }) },
    ...(approval.subagent && { subagentRunId: subagentRunIdOf(approval.subagent) }),
  };
}

/** What a resume entry decides: approve or reject a call (with a note), answer a question, or give a browser tool's result (or error). */
export type Decision = { id: string; approved: boolean; note?: string } | { id: string; answer: string } | { id: string; result: unknown } | { id: string; error: string };

const KIND_HINTS = {
  tool: 'This interrupt is a tool approval: decide it with { approved, note? }.',
  question: 'This interrupt is a question: answer it with { answer }.',
  client: 'This interrupt is a browser tool call: send its { result } or { error }.',
} as const;

/** Whether a payload plainly answers another kind of interrupt (a decision given to a question, ...). */
function answersAnotherKind(payload: unknown, kind: PendingApprovalInfo['kind']): boolean {
  if (!isRecord(payload)) return false;
  if (kind === 'tool') return 'answer' in payload || 'result' in payload;
  if (kind === 'question') return 'approved' in payload || 'result' in payload;
  return 'approved' in payload || 'answer' in payload;
}

/**
 * The decision a resume entry carries for `approval`. `cancelled` rejects the call (a question
 * cannot be cancelled: it needs an answer). Payloads follow the interrupt's `responseSchema`.
 */
export function decisionOf(entry: ResumeEntry, approval: PendingApprovalInfo): Decision {
  const payload = entry.payload as unknown;
  if (answersAnotherKind(payload, approval.kind)) throw new AgUiRequestError(400, ERROR_CODES.LOUSHO_APPROVAL_KIND_MISMATCH, KIND_HINTS[approval.kind]);
  if (approval.kind === 'client') return clientResultOf(entry, approval);
  if (approval.kind === 'question') {
    if (entry.status === 'cancelled') throw invalidInput('resume[0]: a question cannot be cancelled; answer it with payload { answer }.');
    const answer = typeof payload === 'string' ? payload : isRecord(payload) ? payload.answer : undefined;
    if (typeof answer !== 'string' || answer.trim() === '') throw invalidInput('resume[0].payload: a question takes { answer: string } (not empty).');
    return { id: approval.approvalId, answer };
  }
  if (entry.status === 'cancelled') return { id: approval.approvalId, approved: false, ...(isRecord(payload) && typeof payload.note === 'string' && { note: payload.note }) };
  const approved = typeof payload === 'boolean' ? payload : isRecord(payload) ? payload.approved : undefined;
  if (typeof approved !== 'boolean') throw invalidInput('resume[0].payload: a tool approval takes { approved: boolean, note?: string }.');
  const note = isRecord(payload) ? payload.note : undefined;
  if (note !== undefined && typeof note !== 'string') throw invalidInput('resume[0].payload.note must be a string.');
  return { id: approval.approvalId, approved, ...(note !== undefined && { note }) };
}

/** A browser tool's result, or its error; `cancelled` ends the call with an error the model reads. */
function clientResultOf(entry: ResumeEntry, approval: PendingApprovalInfo): Decision {
  const payload = entry.payload as unknown;
  if (entry.status === 'cancelled') return { id: approval.approvalId, error: 'The client cancelled the call.' };
  if (!isRecord(payload) || ('result' in payload) === ('error' in payload)) throw invalidInput('resume[0].payload: a browser tool call takes { result } or { error: string }.');
  if (!('error' in payload)) return { id: approval.approvalId, result: payload.result };
  const { error } = payload;
  if (typeof error !== 'string' || error.trim() === '' || error.length > 2000) throw invalidInput('resume[0].payload.error must be a message of 1 to 2,000 characters.');
  return { id: approval.approvalId, error };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
