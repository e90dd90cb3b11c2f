import type { PendingApprovalInfo } from '@lousho/protocol';
import type { PermissionRule } from '@lousho/protocol';
import { PropagatingToolError, toolErrorResult } from '../../tools/errors.js';
import type { CallScope, PreparedCall } from '../tool-call.js';
import { errorOutcome, rejectedError } from '../tool-outcome.js';
import { reportPermission } from './permissions.js';

type RunnableCall = Extract<PreparedCall, { kind: 'run' }>;

let approvalCounter = 0;
function newApprovalId(): string {
  approvalCounter = (approvalCounter + 1) % 1e9;
  return `appr_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}${approvalCounter.toString(36)}`;
}

/**
 * The stages "`needsApproval`" and "pause": whether the call waits for a person (a question always
 * does, and a browser tool always waits for the page; an `ask` rule does; an `allow` rule never does; else the tool's `needsApproval`), then, when
 * it does, `approve` decides it in code (`send()`), or the call pauses (`kind: 'pause'`). A rejected
 * call's result is `rejected`; a `needsApproval` that throws is the call's `execution` error.
 */
export async function approvalStage(scope: CallScope, prepared: RunnableCall, rule: PermissionRule | undefined): Promise<PreparedCall> {
  const { call, tool, args, ctx, hookCtx } = prepared;
  // A question and a browser tool always pause: a person, or the page, gives the result.
  let needs = tool.approvalKind === 'question' || tool.approvalKind === 'client' || rule?.decision === 'ask';
  if (!needs && rule?.decision !== 'allow' && tool.needsApproval) {
    try {
      needs = typeof tool.needsApproval === 'function' ? Boolean(await tool.needsApproval(args as never, ctx)) : tool.needsApproval === true;
    } catch (err) {
      if (err instanceof PropagatingToolError) throw err;
      return { kind: 'done', outcome: errorOutcome(call, args, toolErrorResult({ toolName: call.name, toolCallId: call.id, error: err, kind: 'execution' })), hookCtx };
    }
  }
  reportPermission(scope.deps, call, rule);
  return needs ? pauseOrDecide(scope, prepared) : prepared;
}

/** A call that needs approval: decided by `approve` (tool calls of `send()`), else it pauses the batch. */
async function pauseOrDecide(scope: CallScope, prepared: RunnableCall): Promise<PreparedCall> {
  const { call, tool, args, hookCtx } = prepared;
  const { deps } = scope;
  const kind = tool.approvalKind ?? 'tool';
  const approval: PendingApprovalInfo = {
    approvalId: newApprovalId(),
    toolCallId: call.id,
    toolName: call.name,
    displayName: tool.displayName ?? call.name,
    args,
    kind,
    ...(kind === 'question' ? { question: questionText(args) } : {}),
  };
  if (!deps.approve || kind !== 'tool') return { kind: 'pause', call, approval };
  const decision = await deps.approve({ ...approval, sessionId: scope.snapshot.sessionId, runId: scope.snapshot.runId });
  if (decision === true) return prepared;
  const note = typeof decision === 'string' ? decision : undefined;
  return { kind: 'done', outcome: errorOutcome(call, args, rejectedError(call, note)), hookCtx };
}

function questionText(args: unknown): string {
  const q = (args as { question?: unknown } | null)?.question;
  return typeof q === 'string' ? q : '';
}
