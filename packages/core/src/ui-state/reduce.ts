import type { AgentStreamEvent, PendingApprovalInfo } from '../events/types.js';
import { appendReplyText, cancelUnfinishedTools, contentParts, pushMessage, toolStateForError, updateToolPart, upsertToolPart, type MessageList } from './message-ops.js';
import { adoptState, CURSOR_OPEN, CURSOR_STEP_BOUNDARY, cursorOfState, initialSnapshot, messageListOf, Snapshot } from './snapshot.js';
import type { AgentUIState, AgentUIStatus, AnyUIToolPart, UIToolApproval, UIToolPart } from './types.js';

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
  const known = typeof seq === 'number';
  if (known && seq <= current.lastSeq) return state ?? (current as unknown as AgentUIState<ToolPart>);
  return (apply(current, event, known ? seq : current.lastSeq) ?? state ?? current) as unknown as AgentUIState<ToolPart>;
}

/** Reply content arrived: the list changed, the reply is open, the run is streaming. */
function reply(s: Snapshot, seq: number, list: MessageList): Snapshot {
  const status = s.status;
  return new Snapshot(list, CURSOR_OPEN, status === 'submitted' || status === 'idle' ? 'streaming' : status, s.pendingApproval, s.error, s.usage, s.finishReason, seq, s.runId);
}

/** Only the list or the cursor changed. */
function keep(s: Snapshot, seq: number, list: MessageList, cursor: number): Snapshot {
  return new Snapshot(list, cursor, s.status, s.pendingApproval, s.error, s.usage, s.finishReason, seq, s.runId);
}

/** Streamed argument text, while the arguments are still streaming. */
function appendArgs(part: UIToolPart, delta: string): UIToolPart | undefined {
  return part.state === 'input-streaming' ? { ...part, argsText: (part.argsText ?? '') + delta } : undefined;
}

function withProgress(part: UIToolPart, progress: unknown): UIToolPart {
  return { ...part, progress };
}

/** A decision on the part's approval: recorded, and the call runs or is rejected. */
function decided(part: UIToolPart, event: Extract<AgentStreamEvent, { type: 'approval.resolved' }>): UIToolPart {
  const { approved, note, answer } = event;
  const approval: UIToolApproval = {
    ...(part.approval ?? { approvalId: event.approvalId, kind: answer !== undefined ? 'question' : 'tool' }),
    approved,
    ...(note !== undefined && { note }),
    ...(answer !== undefined && { answer }),
  };
  return { ...part, state: part.state === 'awaiting-approval' ? (approved ? 'running' : 'rejected') : part.state, approval };
}

/** The next state, or undefined when the event changes nothing (unknown type). */
function apply(s: Snapshot, event: AgentStreamEvent, seq: number): Snapshot | undefined {
  const list = messageListOf(s);
  const cursor = cursorOfState(s);
  let fields: Partial<UIToolPart>;
  let next: MessageList | undefined;

  switch (event.type) {
    case 'text.delta':
    case 'reasoning.delta':
      return reply(s, seq, appendReplyText(list, cursor, event.type === 'text.delta' ? 'text' : 'reasoning', event.delta, !(cursor & CURSOR_STEP_BOUNDARY)));

    case 'run.start': {
      // A continuation goes on in the same assistant message; a new run starts a new one.
      const continuation = event.continuation;
      return new Snapshot(list, continuation ? cursor | CURSOR_STEP_BOUNDARY : CURSOR_STEP_BOUNDARY, 'submitted', null, null, continuation ? s.usage : null, null, seq, event.runId);
    }

    case 'user.message': {
      // Input may carry whole messages; only user and assistant content is shown (a stored history
      // with tool calls renders through `stateFromTranscript`).
      const { role, content } = event.message;
      return keep(s, seq, role === 'user' || role === 'assistant' ? pushMessage(list, role, contentParts(content)) : list, CURSOR_STEP_BOUNDARY);
    }

    case 'step.start':
      return keep(s, seq, list, cursor | CURSOR_STEP_BOUNDARY);

    case 'tool.input.start':
      return reply(s, seq, upsertToolPart(list, cursor, event, undefined, { state: 'input-streaming', argsText: '' }));

    case 'tool.input.delta':
      next = updateToolPart(list, event.toolCallId, appendArgs, event.delta);
      return next ? reply(s, seq, next) : keep(s, seq, list, cursor);

    case 'tool.call':
      fields = { state: 'running', args: event.args };
      return reply(s, seq, upsertToolPart(list, cursor, event, { toolName: event.toolName, displayName: event.displayName, ...fields }, fields));

    case 'tool.progress':
      next = updateToolPart(list, event.toolCallId, withProgress, event.progress);
      return next ? reply(s, seq, next) : keep(s, seq, list, cursor);

    case 'tool.done':
      fields = { state: 'done', result: event.result, ...(event.artifacts && { artifacts: event.artifacts }) };
      return reply(s, seq, upsertToolPart(list, cursor, event, fields, fields));

    case 'tool.error':
      fields = { state: toolStateForError(event.error.kind), error: event.error };
      return reply(s, seq, upsertToolPart(list, cursor, event, fields, fields));

    case 'approval.requested': {
      const pending = event.approval;
      fields = {
        state: 'awaiting-approval',
        args: pending.args,
        approval: { approvalId: pending.approvalId, kind: pending.kind, ...(pending.question !== undefined && { question: pending.question }) },
      };
      next = upsertToolPart(list, cursor, pending, fields, fields);
      return new Snapshot(next, cursor | CURSOR_OPEN, 'awaiting-approval', pending, s.error, s.usage, s.finishReason, seq, event.runId);
    }

    case 'approval.resolved': {
      next = updateToolPart(list, event.toolCallId, decided, event);
      const pending: PendingApprovalInfo | null = s.pendingApproval?.approvalId === event.approvalId ? null : s.pendingApproval;
      const status: AgentUIStatus = s.status === 'awaiting-approval' && !pending ? 'submitted' : s.status;
      return new Snapshot(next ?? list, cursor, status, pending, s.error, s.usage, s.finishReason, seq, event.runId);
    }

    case 'step.done':
      return new Snapshot(list, cursor, s.status, s.pendingApproval, s.error, event.usage, s.finishReason, seq, event.runId);

    case 'run.done': {
      const reason = event.finishReason;
      const paused = reason === 'awaiting-approval';
      const aborted = reason === 'aborted';
      return new Snapshot(
        aborted ? cancelUnfinishedTools(list) : list,
        cursor,
        paused || aborted ? reason : 'idle',
        paused ? s.pendingApproval : null,
        null,
        event.usage,
        reason,
        seq,
        event.runId,
      );
    }

    case 'error':
      return new Snapshot(cancelUnfinishedTools(list), cursor, 'error', null, event.error, s.usage, null, seq, event.runId);
  }
  return undefined;
}
