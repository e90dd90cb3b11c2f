import type { AgentStreamEvent } from '../contracts/events.js';
import { updateToolPart, type MessageList, type PartFields } from './message-ops.js';
import { listOf } from './persistent-list.js';
import { CURSOR_OPEN } from './cursor.js';
import { cursorOfState, Snapshot } from './snapshot.js';
import type { UIToolApproval, UIToolPart } from './types.js';

// The lead's approval events, a module of the full reducer (reduce-agent-events.ts): a browser
// client loads it with the first approval, so a page whose agent asks nobody does not download it.

/** `approval.requested` or `approval.resolved`. */
export type ApprovalEvent = Extract<AgentStreamEvent, { type: `approval.${string}` }>;

/** What an approval event does to its call's part (see `toolFields`): it pauses the call, then records the decision. */
export function approvalFields(event: ApprovalEvent, part?: UIToolPart): PartFields | undefined {
  if (event.type === 'approval.requested') {
    const { approvalId, kind, question, args } = event.approval;
    return { state: kind === 'client' ? 'awaiting-client' : 'awaiting-approval', args, approval: { approvalId, kind, ...(question !== undefined && { question }) } };
  }
  if (!part) return undefined;
  // A decision on the part's approval: recorded, and the call runs or is rejected.
  const { approved, note, answer } = event;
  const approval: UIToolApproval = {
    approvalId: event.approvalId,
    kind: event.kind ?? (answer !== undefined ? 'question' : 'tool'),
    ...part.approval,
    approved,
    ...(note !== undefined && { note }),
    ...(answer !== undefined && { answer }),
  };
  const waiting = part.state === 'awaiting-approval' || part.state === 'awaiting-client';
  return { state: waiting ? (approved ? 'running' : 'rejected') : part.state, approval };
}

/**
 * An approval event of the run the state shows (not a sub-agent's): its call's part, and the
 * run's `status` and `pendingApproval` (a request pauses the run; the decision on the pending
 * approval lets it go on).
 */
export function applyApproval(s: Snapshot, event: ApprovalEvent, seq: number): Snapshot {
  const list = listOf<MessageList>(s)!;
  let cursor = cursorOfState(s);
  let next: MessageList;
  if (event.type === 'approval.requested') {
    // (A request always has a part: its call's, or a new one.)
    next = updateToolPart(list, cursor, event.approval, approvalFields, event)!;
    cursor |= CURSOR_OPEN;
  } else {
    next = updateToolPart(list, cursor, event, approvalFields, event) ?? list;
  }
  const { error, usage, finishReason, guardrail } = s;
  return new Snapshot(next, cursor, { ...runAfterApproval(s, event), error, usage, finishReason, runId: event.runId, guardrail, lastSeq: seq, queued: s.queued });
}

/**
 * The run's `status` and `pendingApproval` after an approval event, the lead's or a sub-agent's
 * (either pauses the whole run): a request pauses it; the decision on the pending approval lets it go on.
 */
export function runAfterApproval({ status, pendingApproval }: Pick<Snapshot, 'status' | 'pendingApproval'>, event: ApprovalEvent): Pick<Snapshot, 'status' | 'pendingApproval'> {
  if (event.type === 'approval.requested') return { status: 'awaiting-approval', pendingApproval: event.approval };
  if (pendingApproval?.approvalId === event.approvalId) pendingApproval = null;
  return { status: status === 'awaiting-approval' && !pendingApproval ? 'submitted' : status, pendingApproval };
}
