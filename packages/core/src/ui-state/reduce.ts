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

/** The next state, or undefined when the event changes nothing (unknown type). */
function apply(s: Snapshot, event: AgentStreamEvent, seq: number): Snapshot | undefined {
  const list = messageListOf(s);
  const cursor = cursorOfState(s);
  const { status, pendingApproval, error, usage, finishReason } = s;

  /** Reply content arrived: the list changed, the reply is open, the run is streaming. */
  const reply = (next: MessageList): Snapshot =>
    new Snapshot(next, CURSOR_OPEN, status === 'submitted' || status === 'idle' ? 'streaming' : status, pendingApproval, error, usage, finishReason, seq, s.runId);
  /** Only the list or the cursor changed. */
  const keep = (next: MessageList, nextCursor: number): Snapshot => new Snapshot(next, nextCursor, status, pendingApproval, error, usage, finishReason, seq, s.runId);
  /** The reply with the tool part of `call` updated, or added (with `fields`) when it is not there yet. */
  const tool = (call: { toolCallId: string; toolName: string; displayName?: string }, update: (part: UIToolPart) => UIToolPart, fields: Partial<UIToolPart>): MessageList =>
    upsertToolPart(list, cursor, call.toolCallId, update, () => ({
      type: 'tool',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      displayName: call.displayName ?? call.toolName,
      ...fields,
    }) as UIToolPart);

  switch (event.type) {
    case 'text.delta':
    case 'reasoning.delta':
      return reply(appendReplyText(list, cursor, event.type === 'text.delta' ? 'text' : 'reasoning', event.delta, !(cursor & CURSOR_STEP_BOUNDARY)));

    case 'run.start': {
      // A continuation goes on in the same assistant message; a new run starts a new one.
      const continuation = event.continuation;
      return new Snapshot(list, continuation ? cursor | CURSOR_STEP_BOUNDARY : CURSOR_STEP_BOUNDARY, 'submitted', null, null, continuation ? usage : null, null, seq, event.runId);
    }

    case 'user.message': {
      // Input may carry whole messages; only user and assistant content is shown (a stored history
      // with tool calls renders through `stateFromTranscript`).
      const { role, content } = event.message;
      return keep(role === 'user' || role === 'assistant' ? pushMessage(list, role, contentParts(content)) : list, CURSOR_STEP_BOUNDARY);
    }

    case 'step.start':
      return keep(list, cursor | CURSOR_STEP_BOUNDARY);

    case 'tool.input.start':
      return reply(tool(event, (part) => part, { state: 'input-streaming', argsText: '' }));

    case 'tool.input.delta': {
      const next = updateToolPart(list, event.toolCallId, (part) => (part.state === 'input-streaming' ? { ...part, argsText: (part.argsText ?? '') + event.delta } : undefined));
      return next ? reply(next) : keep(list, cursor);
    }

    case 'tool.call': {
      const args = event.args;
      return reply(tool(event, (part) => ({ ...part, toolName: event.toolName, displayName: event.displayName, state: 'running', args }), { state: 'running', args }));
    }

    case 'tool.progress': {
      const next = updateToolPart(list, event.toolCallId, (part) => ({ ...part, progress: event.progress }));
      return next ? reply(next) : keep(list, cursor);
    }

    case 'tool.done': {
      const artifacts = event.artifacts;
      const fields: Partial<UIToolPart> = { state: 'done', result: event.result, ...(artifacts && { artifacts }) };
      return reply(tool(event, (part) => ({ ...part, ...fields }), fields));
    }

    case 'tool.error': {
      const fields: Partial<UIToolPart> = { state: toolStateForError(event.error.kind), error: event.error };
      return reply(tool(event, (part) => ({ ...part, ...fields }), fields));
    }

    case 'approval.requested': {
      const pending = event.approval;
      const fields: Partial<UIToolPart> = {
        state: 'awaiting-approval',
        args: pending.args,
        approval: { approvalId: pending.approvalId, kind: pending.kind, ...(pending.question !== undefined && { question: pending.question }) },
      };
      const next = tool(pending, (part) => ({ ...part, ...fields }), fields);
      return new Snapshot(next, cursor | CURSOR_OPEN, 'awaiting-approval', pending, error, usage, finishReason, seq, event.runId);
    }

    case 'approval.resolved': {
      const { approvalId, approved, note, answer } = event;
      const next = updateToolPart(list, event.toolCallId, (part) => {
        const approval: UIToolApproval = {
          ...(part.approval ?? { approvalId, kind: answer !== undefined ? 'question' : 'tool' }),
          approved,
          ...(note !== undefined && { note }),
          ...(answer !== undefined && { answer }),
        };
        return { ...part, state: part.state === 'awaiting-approval' ? (approved ? 'running' : 'rejected') : part.state, approval };
      });
      const pending: PendingApprovalInfo | null = pendingApproval?.approvalId === approvalId ? null : pendingApproval;
      const nextStatus: AgentUIStatus = status === 'awaiting-approval' && !pending ? 'submitted' : status;
      return new Snapshot(next ?? list, cursor, nextStatus, pending, error, usage, finishReason, seq, event.runId);
    }

    case 'step.done':
      return new Snapshot(list, cursor, status, pendingApproval, error, event.usage, finishReason, seq, event.runId);

    case 'run.done': {
      const reason = event.finishReason;
      const paused = reason === 'awaiting-approval';
      const aborted = reason === 'aborted';
      return new Snapshot(
        aborted ? cancelUnfinishedTools(list) : list,
        cursor,
        paused || aborted ? reason : 'idle',
        paused ? pendingApproval : null,
        null,
        event.usage,
        reason,
        seq,
        event.runId,
      );
    }

    case 'error':
      return new Snapshot(cancelUnfinishedTools(list), cursor, 'error', null, event.error, usage, null, seq, event.runId);
  }
  return undefined;
}
