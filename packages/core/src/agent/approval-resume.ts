import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { toolErrorResult } from '../tools/errors.js';
import { validateToolArguments } from '../tools/validate-args.js';
import type { ToolExecutionContext } from '@lousho/protocol';
import type { ToolCallHookContext } from '@lousho/protocol';
import type { ToolCall } from '@lousho/protocol';
import { attachScope, type ChildResume } from './loop-scope.js';
import type { ApprovalRecord, ApprovalStore } from '@lousho/protocol';
import type { RunSnapshot } from '@lousho/protocol';
import { progressReporter } from './call-context.js';
import { runPreHooks } from './stages/pre-hooks.js';
import type { BatchContinuation, CallScope, PreparedCall } from './tool-call.js';
import { rejectedError } from './tool-outcome.js';

/**
 * A person's decision on a paused call, or what the page sent for a browser tool's call: its
 * `result` (checked against the tool's `outputSchema` before it is claimed), or the `error` its
 * handler threw (the call's `execution` error result).
 */
export type ApprovalDecision =
  | { kind: 'tool'; approved: boolean; note?: string }
  | { kind: 'question'; answer: string }
  | { kind: 'client'; result?: unknown; error?: string; toolCallId?: string };

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
    const message = kindMismatchMessage(id, record.kind);
    throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_KIND_MISMATCH, message, { hint: message });
  }
  if (decision.kind === 'client' && decision.toolCallId !== undefined && decision.toolCallId !== record.toolCallId) {
    throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_NOT_FOUND, `Approval '${id}' does not wait on the tool call '${String(decision.toolCallId).slice(0, 80)}'.`, {
      hint: "Send the result for the call the run waits on (the pending approval's toolCallId).",
    });
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
  await store.complete(id, storedDecision(decision));
  return claimed;
}

/** What the approval store keeps of a decision (`decisionOf` reads it back after a crash). */
function storedDecision(decision: ApprovalDecision): NonNullable<ApprovalRecord['decision']> {
  if (decision.kind === 'question') return { approved: true, answer: decision.answer };
  if (decision.kind === 'client') return { approved: true, ...(decision.error !== undefined ? { error: decision.error } : { result: decision.result }) };
  return { approved: decision.approved, ...(decision.note ? { note: decision.note } : {}) };
}

/** The decision a stored record holds: the one its continuation goes on with after a crash. */
export function decisionOf(record: ApprovalRecord & { decision: NonNullable<ApprovalRecord['decision']> }): ApprovalDecision {
  const { decision } = record;
  if (record.kind === 'question') return { kind: 'question', answer: decision.answer ?? '' };
  if (record.kind === 'client') return { kind: 'client', ...(decision.error !== undefined ? { error: decision.error } : { result: decision.result }) };
  return { kind: 'tool', approved: decision.approved, ...(decision.note ? { note: decision.note } : {}) };
}

/** Which call decides an approval of this kind. */
export function kindMismatchMessage(id: string, kind: ApprovalRecord['kind']): string {
  if (kind === 'question') return `Approval '${id}' is a question; answer it with approvals.answer({ id, answer }).`;
  if (kind === 'client') return `Approval '${id}' is a browser tool's call; send its result with approvals.submitToolResult({ id, result }).`;
  return `Approval '${id}' is a tool call; decide it with approvals.resolve({ id, approved, note }).`;
}

/**
 * How the paused call is decided when the run goes on: approved calls run their pre-hooks again
 * (which may deny or supply a result, but not change the approved input) and then execute;
 * rejected calls get the `rejected` error result; an answered question's answer is its result.
 * When the call waits inside a sub-agent, the run's paused call is the delegation: it goes on with
 * the sub-agent's saved state, and the decision is applied there (at any depth).
 */
export function continuationFor(record: ApprovalRecord, decision: ApprovalDecision): BatchContinuation {
  return levelContinuation(record.snapshot, record, decision, true);
}

function levelContinuation(snapshot: RunSnapshot, record: ApprovalRecord, decision: ApprovalDecision, top: boolean): BatchContinuation {
  const paused = snapshot.paused;
  const pausedCall = paused?.calls[paused.index];
  const child = pausedCall ? snapshot.children?.[pausedCall.id] : undefined;
  const announce = (scope: CallScope) => {
    if (!top) return;
    scope.deps.emit({
      type: 'approval.resolved',
      approvalId: record.approvalId,
      toolCallId: record.toolCallId,
      approved: decision.kind === 'tool' ? decision.approved : true,
      ...(decision.kind === 'client' ? { kind: 'client' as const } : {}),
      ...(decision.kind === 'tool' && decision.note ? { note: decision.note } : {}),
      ...(decision.kind === 'question' ? { answer: decision.answer } : {}),
      // A call inside a sub-agent: the event goes to that sub-agent's transcript too.
      ...(record.subagent ? { subagent: record.subagent } : {}),
    });
  };
  if (pausedCall && child?.paused) {
    return {
      first: async (scope: CallScope): Promise<PreparedCall> => {
        announce(scope);
        return delegationGoesOn(scope, pausedCall, { snapshot: child, continuation: levelContinuation(child, record, decision, false) });
      },
    };
  }
  // The model's own arguments for the paused call: pre-hooks re-run from them, as before the pause.
  const rawArguments = pausedCall?.arguments ?? JSON.stringify(record.args ?? {});
  return {
    ...(paused ? {} : unsavedBatch(record)),
    first: async (scope: CallScope): Promise<PreparedCall> => {
      const current = scope.snapshot;
      const call = { id: record.toolCallId, name: record.toolName, arguments: rawArguments };
      announce(scope);
      if (decision.kind === 'question') {
        return { kind: 'done', outcome: { call, args: record.args, result: decision.answer, isError: false } };
      }
      if (decision.kind === 'client') return browserOutcome(call, record.args, decision);
      if (!decision.approved) {
        const error = rejectedError(call, decision.note);
        return { kind: 'done', outcome: { call, args: record.args, result: error, isError: true, error } };
      }
      const tool = scope.deps.tools.get(call.name);
      if (!tool) {
        const error = toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'not-found', error: `Tool '${call.name}' is no longer available to this agent.` });
        return { kind: 'done', outcome: { call, args: record.args, result: error, isError: true, error } };
      }
      const validated = await validateToolArguments(tool, call.arguments, call.name);
      if (!validated.ok) return { kind: 'done', outcome: { call, args: record.args, result: validated.error, isError: true, error: validated.error } };
      const messages = Object.freeze(current.messages.slice(0, scope.visibleLength));
      const hookCtx: ToolCallHookContext = {
        toolName: call.name,
        toolCallId: call.id,
        args: validated.args,
        runId: current.runId,
        sessionId: current.sessionId,
        messages,
        approved: true,
        ...(scope.deps.subagent ? { subagent: scope.deps.subagent } : {}),
      };
      const hooked = await runPreHooks(scope, tool, hookCtx, { value: record.args });
      if (hooked) return hooked;
      const ctx: ToolExecutionContext = {
        toolCallId: call.id,
        messages,
        ...(scope.deps.signal ? { abortSignal: scope.deps.signal } : {}),
        reportProgress: progressReporter(scope, call),
      };
      return { kind: 'run', call, tool, args: record.args, ctx: attachScope(ctx, scope), hookCtx };
    },
  };
}

/**
 * The delegation whose sub-agent holds the decided call runs on from the sub-agent's saved state.
 * Its pre-hooks ran when it started; its post-hooks run when it finishes.
 */
async function delegationGoesOn(scope: CallScope, call: ToolCall, resume: ChildResume): Promise<PreparedCall> {
  const tool = scope.deps.tools.get(call.name);
  const parsed = tool ? await validateToolArguments(tool, call.arguments, call.name) : undefined;
  if (!tool || !parsed?.ok) {
    const error = parsed && !parsed.ok
      ? parsed.error
      : toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'not-found', error: `Tool '${call.name}' is no longer available to this agent.` });
    return { kind: 'done', outcome: { call, args: null, result: error, isError: true, error } };
  }
  const messages = Object.freeze(scope.snapshot.messages.slice(0, scope.visibleLength));
  const hookCtx: ToolCallHookContext = {
    toolName: call.name,
    toolCallId: call.id,
    args: parsed.args,
    runId: scope.snapshot.runId,
    sessionId: scope.snapshot.sessionId,
    messages,
    ...(scope.deps.subagent ? { subagent: scope.deps.subagent } : {}),
  };
  const ctx: ToolExecutionContext = {
    toolCallId: call.id,
    messages,
    ...(scope.deps.signal ? { abortSignal: scope.deps.signal } : {}),
    reportProgress: progressReporter(scope, call),
  };
  return { kind: 'run', call, tool, args: parsed.args, ctx: attachScope(ctx, scope, resume), hookCtx };
}

/**
 * The batch of an approval saved without it (a record written by an older version, or by hand):
 * the paused call first, then the other calls of its turn that have no result yet, which are not
 * started (`not-run`), so every call of the turn still gets exactly one result.
 */
function unsavedBatch(record: ApprovalRecord): Pick<BatchContinuation, 'batch' | 'restNotRun'> {
  const { messages, steps } = record.snapshot;
  const at = messages.findLastIndex((m) => m.role === 'assistant' && m.toolCalls?.some((c) => c.id === record.toolCallId));
  const turn = messages[at];
  // Only the results after the turn answer its calls: an earlier step's call may have had the same id.
  const answered = new Set(messages.slice(at + 1).flatMap((m) => (m.role === 'tool' && m.toolCallId !== undefined ? [m.toolCallId] : [])));
  const paused = turn?.toolCalls?.find((c) => c.id === record.toolCallId) ?? { id: record.toolCallId, name: record.toolName, arguments: JSON.stringify(record.args ?? {}) };
  const rest = (turn?.toolCalls ?? []).filter((c) => c.id !== record.toolCallId && !answered.has(c.id));
  return { batch: { calls: [paused, ...rest], index: 0, step: steps }, restNotRun: true };
}

/** A browser tool's call, ended by what the page sent: its (checked) result, or its handler's error. */
function browserOutcome(call: ToolCall, args: unknown, decision: { result?: unknown; error?: string }): PreparedCall {
  if (decision.error === undefined) return { kind: 'done', outcome: { call, args, result: decision.result, isError: false } };
  const error = toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'execution', error: decision.error });
  return { kind: 'done', outcome: { call, args, result: error, isError: true, error } };
}
