import { ERROR_CODES, SDKError } from '../errors.js';
import { toolErrorResult } from '../tools/errors.js';
import { validateToolArguments } from '../tools/validate-args.js';
import type { ToolExecutionContext } from '../tools/types.js';
import type { ApprovalRecord, ApprovalStore } from './approval-store.js';
import type { BatchContinuation } from './run-loop.js';
import type { RunSnapshot } from './run-snapshot.js';
import { progressReporter, rejectedError, runPreHooks, type CallScope, type PreparedCall } from './tool-call.js';

/** A person's decision on a paused call. */
export type ApprovalDecision = { kind: 'tool'; approved: boolean; note?: string } | { kind: 'question'; answer: string };

/**
 * Checks a decision against the stored approval and claims it. Throws a stable-coded SDKError and
 * changes nothing when the id is unknown, the approval is no longer pending, or the decision is of
 * the wrong kind (answering a tool approval, approving a question). Two concurrent claims: one wins.
 */
export async function claimApproval(store: ApprovalStore, id: string, decision: ApprovalDecision): Promise<ApprovalRecord> {
  if (typeof id !== 'string' || id.length === 0) {
    throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_NOT_FOUND, 'An approval id (a non-empty string) is required.', {
      hint: 'Pass the `approvalId` of the run result or of the `approval.requested` event.',
    });
  }
  const record = await store.get(id);
  if (!record) {
    throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_NOT_FOUND, `No approval with id '${id}'.`, {
      hint: 'Use an id from agent.approvals.list() or from the paused run result.',
    });
  }
  if (record.status !== 'pending') {
    throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_NOT_PENDING, `Approval '${id}' was already resolved.`, {
      hint: 'Each approval is decided once; list pending approvals with agent.approvals.list().',
    });
  }
  if (record.kind !== decision.kind) {
    const message =
      record.kind === 'question'
        ? `Approval '${id}' is a question; answer it with approvals.answer({ id, answer }).`
        : `Approval '${id}' is a tool call; decide it with approvals.resolve({ id, approved, note }).`;
    throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_KIND_MISMATCH, message, { hint: message });
  }
  if (decision.kind === 'question' && typeof decision.answer !== 'string') {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, 'An answer must be a string.', { hint: 'Pass { id, answer: string }.' });
  }
  const claimed = await store.claim(id);
  if (!claimed) {
    throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_NOT_PENDING, `Approval '${id}' was already resolved.`, {
      hint: 'Another caller decided it first.',
    });
  }
  const stored = decision.kind === 'question' ? { approved: true, answer: decision.answer } : { approved: decision.approved, ...(decision.note ? { note: decision.note } : {}) };
  await store.complete(id, stored);
  return claimed;
}

/**
 * How the paused call is decided when the run goes on: approved calls run their pre-hooks again
 * (which may deny or supply a result, but not change the approved input) and then execute;
 * rejected calls get the `rejected` error result; an answered question's answer is its result.
 */
export function continuationFor(record: ApprovalRecord, decision: ApprovalDecision): BatchContinuation {
  // The model's own arguments for the paused call: pre-hooks re-run from them, as before the pause.
  const rawArguments = record.snapshot.paused?.calls[record.snapshot.paused.index]?.arguments ?? JSON.stringify(record.args ?? {});
  return {
    ...(record.snapshot.paused ? {} : unsavedBatch(record)),
    first: async (scope: CallScope): Promise<PreparedCall> => {
      const snapshot = scope.snapshot as RunSnapshot;
      const paused = record;
      const call = { id: paused.toolCallId, name: paused.toolName, arguments: rawArguments };
      scope.deps.emit({
        type: 'approval.resolved',
        approvalId: paused.approvalId,
        toolCallId: paused.toolCallId,
        approved: decision.kind === 'question' ? true : decision.approved,
        ...(decision.kind === 'tool' && decision.note ? { note: decision.note } : {}),
        ...(decision.kind === 'question' ? { answer: decision.answer } : {}),
      });
      if (decision.kind === 'question') {
        return { kind: 'done', outcome: { call, args: paused.args, result: decision.answer, isError: false } };
      }
      if (!decision.approved) {
        const error = rejectedError(call, decision.note);
        return { kind: 'done', outcome: { call, args: paused.args, result: error, isError: true, error } };
      }
      const tool = scope.deps.tools.get(call.name);
      if (!tool) {
        const error = toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'not-found', error: `Tool '${call.name}' is no longer available to this agent.` });
        return { kind: 'done', outcome: { call, args: paused.args, result: error, isError: true, error } };
      }
      const validated = await validateToolArguments(tool, call.arguments, call.name);
      if (!validated.ok) return { kind: 'done', outcome: { call, args: paused.args, result: validated.error, isError: true, error: validated.error } };
      const messages = Object.freeze(snapshot.messages.slice(0, scope.visibleLength));
      const hookCtx = {
        toolName: call.name,
        toolCallId: call.id,
        args: validated.args,
        runId: snapshot.runId,
        sessionId: snapshot.sessionId,
        messages,
        approved: true,
      };
      const hooked = await runPreHooks(scope, tool, hookCtx, { value: paused.args });
      if (hooked) return hooked;
      const ctx: ToolExecutionContext = {
        toolCallId: call.id,
        messages,
        ...(scope.deps.signal ? { abortSignal: scope.deps.signal } : {}),
        reportProgress: progressReporter(scope, call),
      };
      return { kind: 'run', call, tool, args: paused.args, ctx, hookCtx };
    },
  };
}

/**
 * The batch of an approval saved without it (a record written by an older version, or by hand):
 * the paused call first, then the other calls of its turn that have no result yet, which are not
 * started (`not-run`), so every call of the turn still gets exactly one result.
 */
function unsavedBatch(record: ApprovalRecord): Pick<BatchContinuation, 'batch' | 'restNotRun'> {
  const { messages, steps } = record.snapshot;
  const answered = new Set(messages.flatMap((m) => (m.role === 'tool' && m.toolCallId !== undefined ? [m.toolCallId] : [])));
  const turn = messages.findLast((m) => m.role === 'assistant' && m.toolCalls?.some((c) => c.id === record.toolCallId));
  const paused = turn?.toolCalls?.find((c) => c.id === record.toolCallId) ?? { id: record.toolCallId, name: record.toolName, arguments: JSON.stringify(record.args ?? {}) };
  const rest = (turn?.toolCalls ?? []).filter((c) => c.id !== record.toolCallId && !answered.has(c.id));
  return { batch: { calls: [paused, ...rest], index: 0, step: steps }, restNotRun: true };
}
