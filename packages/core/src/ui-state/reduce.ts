import type { AgentStreamEvent } from '../events/types.js';
import { appendReplyText, cancelUnfinishedTools, contentParts, merge, pushMessage, toolStateForError, updateToolPart, type MessageList } from './message-ops.js';
import { adoptState, CURSOR_OPEN, CURSOR_STEP_BOUNDARY, cursorOfState, initialAgentUIState, messageListOf, Snapshot, type Draft } from './snapshot.js';
import type { AgentUIState, AnyUIToolPart, UIToolApproval, UIToolPart } from './types.js';

/**
 * Applies one agent event to the UI state and returns the next state. Pure: `state` is never
 * changed, and whatever the event does not touch (earlier messages, other parts, the messages
 * array itself when no message changed) keeps its identity.
 *
 * - An event whose `seq` is not above `state.lastSeq` was already applied: the same state is
 *   returned, so a resumed stream never duplicates text or parts.
 * - An event type it does not know is ignored (same state returned).
 * - A text delta, and a change to one of the last parts of the streaming message, cost O(1) in
 *   the number of messages, of parts and in the length of the text.
 *
 * The type parameter only narrows tool parts for a known tool set (`UIToolPartOf<...>`); it is
 * not checked at run time.
 */
export function reduceAgentEvents<ToolPart extends AnyUIToolPart = UIToolPart>(
  state: AgentUIState<ToolPart> | undefined,
  event: AgentStreamEvent,
): AgentUIState<ToolPart> {
  const current = adoptState(state ?? initialAgentUIState());
  const seq = event.seq;
  const known = typeof seq === 'number';
  if (known && seq <= current.lastSeq) return state ?? (current as AgentUIState as AgentUIState<ToolPart>);
  return (apply(current, event, known ? seq : current.lastSeq) ?? state ?? current) as AgentUIState as AgentUIState<ToolPart>;
}

/** Streamed argument text, while the arguments are still streaming. */
function appendArgs(part: UIToolPart, delta: string): UIToolPart | undefined {
  if (part.state !== 'input-streaming') return undefined;
  const next: UIToolPart = Object.assign({}, part);
  next.argsText = (part.argsText ?? '') + delta;
  return next;
}

/** The part as it is: what an update does to a part that needs no change. */
const same = (part: UIToolPart): UIToolPart => part;

/** A decision on the part's approval: recorded, and the call runs or is rejected. */
function decided(part: UIToolPart, event: Extract<AgentStreamEvent, { type: 'approval.resolved' }>): UIToolPart {
  const { approved, note, answer } = event;
  // Object.assign skips the `false` of a missing note or answer.
  const approval: UIToolApproval = Object.assign(
    { approvalId: event.approvalId, kind: answer !== undefined ? 'question' : 'tool' },
    part.approval,
    { approved },
    note !== undefined && { note },
    answer !== undefined && { answer },
  );
  return merge(part, { state: part.state === 'awaiting-approval' ? (approved ? 'running' : 'rejected') : part.state, approval });
}

/** The next state with `list` and `cursor`, the rest as in `s` (the caller adjusts it). */
const next = (s: Snapshot, seq: number, list: MessageList, cursor: number): Draft => new Snapshot(s, list, cursor, seq);

/** Reply content arrived: the reply is open, the run is streaming. Without a change (no such tool call), only `seq` moves. */
function reply(s: Snapshot, seq: number, list: MessageList | undefined): Snapshot {
  if (!list) return next(s, seq, messageListOf(s), cursorOfState(s)) as Snapshot;
  const draft = next(s, seq, list, CURSOR_OPEN);
  const status = s.status;
  if (status === 'submitted' || status === 'idle') draft.status = 'streaming';
  return draft as Snapshot;
}

/** The next state, or undefined when the event changes nothing (unknown type). */
function apply(s: Snapshot, event: AgentStreamEvent, seq: number): Snapshot | undefined {
  const list = messageListOf(s);
  const cursor = cursorOfState(s);
  let fields: Partial<UIToolPart>;
  let draft: Draft;

  switch (event.type) {
    case 'text.delta':
    case 'reasoning.delta':
      return reply(s, seq, appendReplyText(list, cursor, event.type === 'text.delta' ? 'text' : 'reasoning', event.delta, !(cursor & CURSOR_STEP_BOUNDARY)));

    case 'run.start': {
      // A continuation goes on in the same assistant message; a new run starts a new one.
      const continuation = event.continuation;
      draft = next(s, seq, list, continuation ? cursor | CURSOR_STEP_BOUNDARY : CURSOR_STEP_BOUNDARY);
      draft.status = 'submitted';
      draft.pendingApproval = draft.error = draft.finishReason = null;
      if (!continuation) draft.usage = null;
      break;
    }

    case 'user.message': {
      // Input may carry whole messages; only user and assistant content is shown (a stored history
      // with tool calls renders through `stateFromTranscript`).
      const { role, content } = event.message;
      return next(s, seq, role === 'user' || role === 'assistant' ? pushMessage(list, role, contentParts(content)) : list, CURSOR_STEP_BOUNDARY) as Snapshot;
    }

    case 'step.start':
      return next(s, seq, list, cursor | CURSOR_STEP_BOUNDARY) as Snapshot;

    case 'tool.input.start':
      return reply(s, seq, updateToolPart(list, cursor, event, same, 0, { state: 'input-streaming', argsText: '' }));

    case 'tool.input.delta':
      return reply(s, seq, updateToolPart(list, cursor, event, appendArgs, event.delta));

    case 'tool.call':
      fields = { state: 'running', args: event.args };
      return reply(s, seq, updateToolPart(list, cursor, event, merge, { toolName: event.toolName, displayName: event.displayName, state: 'running', args: event.args }, fields));

    case 'tool.progress':
      return reply(s, seq, updateToolPart(list, cursor, event, merge, { progress: event.progress }));

    case 'tool.done':
      fields = Object.assign<Partial<UIToolPart>, false | Partial<UIToolPart> | undefined>({ state: 'done', result: event.result }, event.artifacts && { artifacts: event.artifacts });
      return reply(s, seq, updateToolPart(list, cursor, event, merge, fields, fields));

    case 'tool.error':
      fields = { state: toolStateForError(event.error.kind), error: event.error };
      return reply(s, seq, updateToolPart(list, cursor, event, merge, fields, fields));

    case 'approval.requested': {
      const pending = event.approval;
      const approval: UIToolApproval = Object.assign({ approvalId: pending.approvalId, kind: pending.kind }, pending.question !== undefined && { question: pending.question });
      fields = { state: 'awaiting-approval', args: pending.args, approval };
      draft = next(s, seq, updateToolPart(list, cursor, pending, merge, fields, fields)!, cursor | CURSOR_OPEN);
      draft.status = 'awaiting-approval';
      draft.pendingApproval = pending;
      break;
    }

    case 'approval.resolved': {
      draft = next(s, seq, updateToolPart(list, cursor, event, decided, event) ?? list, cursor);
      const pending = s.pendingApproval?.approvalId === event.approvalId ? null : s.pendingApproval;
      draft.pendingApproval = pending;
      if (s.status === 'awaiting-approval' && !pending) draft.status = 'submitted';
      break;
    }

    case 'step.done':
      draft = next(s, seq, list, cursor);
      draft.usage = event.usage;
      break;

    case 'run.done': {
      const reason = event.finishReason;
      const paused = reason === 'awaiting-approval';
      const aborted = reason === 'aborted';
      draft = next(s, seq, aborted ? cancelUnfinishedTools(list) : list, cursor);
      draft.status = paused || aborted ? reason : 'idle';
      if (!paused) draft.pendingApproval = null;
      draft.error = null;
      draft.usage = event.usage;
      draft.finishReason = reason;
      break;
    }

    case 'error':
      draft = next(s, seq, cancelUnfinishedTools(list), cursor);
      draft.status = 'error';
      draft.pendingApproval = draft.finishReason = null;
      draft.error = event.error;
      break;

    default:
      return undefined;
  }
  draft.runId = event.runId;
  return draft as Snapshot;
}
