import type { AgentStreamEvent, FinishReason, PendingApprovalInfo } from '../events/types.js';
import {
  appendReplyText,
  cancelUnfinishedTools,
  contentParts,
  locateToolPart,
  pushMessage,
  replacePart,
  toolStateForError,
  upsertToolPart,
  type MessageList,
} from './message-ops.js';
import { adoptState, CURSOR_OPEN, CURSOR_STEP_BOUNDARY, cursorOfState, initialSnapshot, messageListOf, Snapshot } from './snapshot.js';
import type { AgentUIState, AgentUIStatus, AnyUIToolPart, UIToolApproval, UIToolPart, UIToolState } from './types.js';

/**
 * Applies one agent event to the UI state and returns the next state. Pure: `state` is never
 * changed, and whatever the event does not touch (earlier messages, other parts, the messages
 * array itself when no message changed) keeps its identity.
 *
 * - An event whose `seq` is not above `state.lastSeq` was already applied: the same state is
 *   returned, so a resumed stream never duplicates text or parts.
 * - An event type it does not know is ignored (same state returned).
 * - A text delta costs O(1) in the number of messages and in the length of the text.
 *
 * The type parameter only narrows tool parts for a known tool set (`UIToolPartOf<...>`); it is
 * not checked at run time.
 */
export function reduceAgentEvents<ToolPart extends AnyUIToolPart = UIToolPart>(
  state: AgentUIState<ToolPart> | undefined,
  event: AgentStreamEvent,
): AgentUIState<ToolPart> {
  const current = state === undefined ? initialSnapshot() : adoptState(state as AgentUIState);
  const seq = event.seq;
  if (typeof seq === 'number' && seq <= current.lastSeq) return state ?? (current as unknown as AgentUIState<ToolPart>);
  const next = apply(current, event, typeof seq === 'number' ? seq : current.lastSeq);
  return (next ?? state ?? current) as unknown as AgentUIState<ToolPart>;
}

/** The next state, or undefined when the event changes nothing (unknown type). */
function apply(s: Snapshot, event: AgentStreamEvent, seq: number): Snapshot | undefined {
  const list = messageListOf(s);
  const cursor = cursorOfState(s);
  switch (event.type) {
    case 'text.delta':
    case 'reasoning.delta':
      return replyChanged(
        s,
        seq,
        appendReplyText(list, cursor, event.type === 'text.delta' ? 'text' : 'reasoning', event.delta, (cursor & CURSOR_STEP_BOUNDARY) === 0),
      );

    case 'run.start':
      return new Snapshot(
        list,
        // A continuation goes on in the same assistant message; a new run starts a new one.
        event.continuation ? cursor | CURSOR_STEP_BOUNDARY : CURSOR_STEP_BOUNDARY,
        'submitted',
        null,
        null,
        event.continuation ? s.usage : null,
        null,
        seq,
        event.runId,
      );

    case 'user.message': {
      // Input may carry whole messages; only user and assistant content is shown (a stored history
      // with tool calls renders through `stateFromTranscript`).
      const { role, content } = event.message;
      const next = role === 'user' || role === 'assistant' ? pushMessage(list, role, contentParts(content)) : list;
      return withList(s, seq, next, CURSOR_STEP_BOUNDARY, s.status);
    }

    case 'step.start':
      return withList(s, seq, list, cursor | CURSOR_STEP_BOUNDARY, s.status);

    case 'tool.input.start':
      return replyChanged(
        s,
        seq,
        upsertToolPart(list, cursor, event.toolCallId, (existing) => existing, () => newToolPart(event, 'input-streaming', { argsText: '' })),
      );

    case 'tool.input.delta': {
      const found = locateToolPart(list, event.toolCallId);
      if (!found || found.part.state !== 'input-streaming') return withList(s, seq, list, cursor, s.status);
      const part = { ...found.part, argsText: (found.part.argsText ?? '') + event.delta };
      return replyChanged(s, seq, replacePart(list, found.messageIndex, found.partIndex, part));
    }

    case 'tool.call':
      return replyChanged(
        s,
        seq,
        upsertToolPart(
          list,
          cursor,
          event.toolCallId,
          (part) => ({ ...part, toolName: event.toolName, displayName: event.displayName, state: 'running', args: event.args }),
          () => newToolPart(event, 'running', { args: event.args }),
        ),
      );

    case 'tool.progress': {
      const found = locateToolPart(list, event.toolCallId);
      if (!found) return withList(s, seq, list, cursor, s.status);
      return replyChanged(s, seq, replacePart(list, found.messageIndex, found.partIndex, { ...found.part, progress: event.progress }));
    }

    case 'tool.done':
      return replyChanged(
        s,
        seq,
        upsertToolPart(
          list,
          cursor,
          event.toolCallId,
          (part) => withArtifacts({ ...part, state: 'done', result: event.result }, event.artifacts),
          () => withArtifacts(newToolPart(event, 'done', { result: event.result }), event.artifacts),
        ),
      );

    case 'tool.error': {
      const state = toolStateForError(event.error.kind);
      return replyChanged(
        s,
        seq,
        upsertToolPart(
          list,
          cursor,
          event.toolCallId,
          (part) => ({ ...part, state, error: event.error }),
          () => newToolPart(event, state, { error: event.error }),
        ),
      );
    }

    case 'approval.requested': {
      const pending = event.approval;
      const approval: UIToolApproval = { approvalId: pending.approvalId, kind: pending.kind, ...(pending.question !== undefined ? { question: pending.question } : {}) };
      const next = upsertToolPart(
        list,
        cursor,
        pending.toolCallId,
        (part) => ({ ...part, state: 'awaiting-approval', args: pending.args, approval }),
        () => newToolPart(pending, 'awaiting-approval', { args: pending.args, approval }),
      );
      return new Snapshot(next, cursor | CURSOR_OPEN, 'awaiting-approval', pending, s.error, s.usage, s.finishReason, seq, event.runId);
    }

    case 'approval.resolved': {
      let next = list;
      const found = locateToolPart(list, event.toolCallId);
      if (found) {
        const decided: UIToolApproval = {
          ...(found.part.approval ?? { approvalId: event.approvalId, kind: event.answer !== undefined ? 'question' : 'tool' }),
          approved: event.approved,
          ...(event.note !== undefined ? { note: event.note } : {}),
          ...(event.answer !== undefined ? { answer: event.answer } : {}),
        };
        const state = found.part.state === 'awaiting-approval' ? (event.approved ? 'running' : 'rejected') : found.part.state;
        next = replacePart(list, found.messageIndex, found.partIndex, { ...found.part, state, approval: decided });
      }
      const pending: PendingApprovalInfo | null = s.pendingApproval?.approvalId === event.approvalId ? null : s.pendingApproval;
      const status: AgentUIStatus = s.status === 'awaiting-approval' && pending === null ? 'submitted' : s.status;
      return new Snapshot(next, cursor, status, pending, s.error, s.usage, s.finishReason, seq, event.runId);
    }

    case 'step.done':
      return new Snapshot(list, cursor, s.status, s.pendingApproval, s.error, event.usage, s.finishReason, seq, event.runId);

    case 'run.done': {
      const reason = event.finishReason;
      const status = statusAfterRun(reason);
      return new Snapshot(
        reason === 'aborted' ? cancelUnfinishedTools(list) : list,
        cursor,
        status,
        status === 'awaiting-approval' ? s.pendingApproval : null,
        null,
        event.usage,
        reason,
        seq,
        event.runId,
      );
    }

    case 'error':
      return new Snapshot(cancelUnfinishedTools(list), cursor, 'error', null, event.error, s.usage, null, seq, event.runId);

    default:
      return undefined;
  }
}

function statusAfterRun(reason: FinishReason): AgentUIStatus {
  if (reason === 'awaiting-approval') return 'awaiting-approval';
  if (reason === 'aborted') return 'aborted';
  return 'idle';
}

/** Reply content arrived: the list changed, the reply is open, the run is streaming. */
function replyChanged(s: Snapshot, seq: number, list: MessageList): Snapshot {
  const status: AgentUIStatus = s.status === 'submitted' || s.status === 'idle' ? 'streaming' : s.status;
  return new Snapshot(list, CURSOR_OPEN, status, s.pendingApproval, s.error, s.usage, s.finishReason, seq, s.runId);
}

function withList(s: Snapshot, seq: number, list: MessageList, cursor: number, status: AgentUIStatus): Snapshot {
  return new Snapshot(list, cursor, status, s.pendingApproval, s.error, s.usage, s.finishReason, seq, s.runId);
}

/** A tool part for a call seen for the first time (its display name defaults to its name). */
function newToolPart(
  call: { toolCallId: string; toolName: string; displayName?: string },
  state: UIToolState,
  fields: Partial<UIToolPart>,
): UIToolPart {
  return { type: 'tool', toolCallId: call.toolCallId, toolName: call.toolName, displayName: call.displayName ?? call.toolName, state, ...fields };
}

function withArtifacts(part: UIToolPart, artifacts: UIToolPart['artifacts']): UIToolPart {
  return artifacts ? { ...part, artifacts } : part;
}
