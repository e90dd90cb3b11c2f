import type { PendingApprovalInfo } from '@lousho/core';
import type { Interrupt, ResumeEntry } from '@ag-ui/core';
import { subagentRunIdOf } from './subagent-ids.js';
import { ERROR_CODES } from '@lousho/core';
import { AgUiRequestError, invalidInput } from './errors.js';

/** `Interrupt.reason` of a tool call waiting for approval, and of an `ask_question` call. */
export const INTERRUPT_REASONS = { tool: 'tool_approval', question: 'question' } as const;

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

/** A paused call as an AG-UI interrupt: its id is the approval id a resume entry answers. */
export function interruptOf(approval: PendingApprovalInfo): Interrupt {
  const question = approval.kind === 'question';
  return {
    id: approval.approvalId,
    reason: INTERRUPT_REASONS[approval.kind],
    message: question ? (approval.question ?? 'The agent asks a question.') : approval.displayName.endsWith('?') ? approval.displayName : `Approve ${approval.displayName}?`,
    toolCallId: approval.toolCallId,
    responseSchema: question ? ANSWER_SCHEMA : APPROVAL_SCHEMA,
    metadata: { toolName: approval.toolName, displayName: approval.displayName, args: approval.args, ...(approval.subagent && { subagent: approval.subagent }) },
    ...(approval.subagent && { subagentRunId: subagentRunIdOf(approval.subagent) }),
  };
}

/** What a resume entry decides: approve or reject a call (with a note), or answer a question. */
export type Decision = { id: string; approved: boolean; note?: string } | { id: string; answer: string };

/**
 * The decision a resume entry carries for `approval`. `cancelled` rejects the call (a question
 * cannot be cancelled: it needs an answer). Payloads follow the interrupt's `responseSchema`.
 */
export function decisionOf(entry: ResumeEntry, approval: PendingApprovalInfo): Decision {
  const payload = entry.payload as unknown;
  if (isRecord(payload) && (approval.kind === 'question' ? 'approved' in payload : 'answer' in payload)) {
    throw new AgUiRequestError(400, ERROR_CODES.LOUSHO_APPROVAL_KIND_MISMATCH, approval.kind === 'question' ? 'This interrupt is a question: answer it with { answer }.' : 'This interrupt is a tool approval: decide it with { approved, note? }.');
  }
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
