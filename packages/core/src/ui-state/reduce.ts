import type { AgentStreamEvent } from '../events/types.js';
import { appendReplyText, cancelUnfinishedTools, contentParts, pushMessage, toolStateForError, updateToolPart, type MessageList } from './message-ops.js';
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

type ToolEvent = Extract<AgentStreamEvent, { type: `tool.${string}` | `approval.${string}` }>;

/**
 * What a tool event does to its call's part: the fields to set on it (with `part` undefined: the
 * fields of a new part for the call), or undefined when it changes nothing (or makes no part).
 */
function toolFields(event: ToolEvent, part?: UIToolPart): Partial<UIToolPart> | undefined {
  switch (event.type) {
    case 'tool.input.start':
      // A call that is already there stays as it is.
      return part ? {} : { state: 'input-streaming', argsText: '' };
    case 'tool.input.delta':
      // Streamed argument text, while the arguments are still streaming.
      return part?.state === 'input-streaming' ? { argsText: (part.argsText ?? '') + event.delta } : undefined;
    case 'tool.call':
      return { state: 'running', args: event.args };
    case 'tool.progress':
      return part && { progress: event.progress };
    case 'tool.done':
      // Object.assign skips the `undefined` of missing artifacts.
      return Object.assign<Partial<UIToolPart>, Partial<UIToolPart> | undefined>({ state: 'done', result: event.result }, event.artifacts && { artifacts: event.artifacts });
    case 'tool.error':
      return { state: toolStateForError(event.error.kind), error: event.error };
    case 'approval.requested': {
      const pending = event.approval;
      const approval: UIToolApproval = Object.assign({ approvalId: pending.approvalId, kind: pending.kind }, pending.question !== undefined && { question: pending.question });
      return { state: 'awaiting-approval', args: pending.args, approval };
    }
    case 'approval.resolved': {
      if (!part) return undefined;
      // A decision on the part's approval: recorded, and the call runs or is rejected.
      const { approved, note, answer } = event;
      const approval: UIToolApproval = Object.assign(
        { approvalId: event.approvalId, kind: answer !== undefined ? 'question' : 'tool' },
        part.approval,
        { approved },
        note !== undefined && { note },
        answer !== undefined && { answer },
      );
      return { state: part.state === 'awaiting-approval' ? (approved ? 'running' : 'rejected') : part.state, approval };
    }
  }
  return undefined;
}

/** The next state with `list` and `cursor`, the rest as in `s` (the caller adjusts it). */
const next = (s: Snapshot, seq: number, list: MessageList, cursor: number): Draft => new Snapshot(s, list, cursor, seq);

/** Reply content arrived: the reply is open, the run is streaming. Without a change (no such tool call), only `seq` moves. */
function reply(s: Snapshot, seq: number, list: MessageList | undefined): Snapshot {
  const draft = next(s, seq, list ?? messageListOf(s), list ? CURSOR_OPEN : cursorOfState(s));
  const status = s.status;
  if (list && (status === 'submitted' || status === 'idle')) draft.status = 'streaming';
  return draft as Snapshot;
}

/** The next state, or undefined when the event changes nothing (unknown type). */
function apply(s: Snapshot, event: AgentStreamEvent, seq: number): Snapshot | undefined {
  const list = messageListOf(s);
  const cursor = cursorOfState(s);
  let draft: Draft;

  switch (event.type) {
    case 'text.delta':
    case 'reasoning.delta':
      return reply(s, seq, appendReplyText(list, cursor, event.type === 'text.delta' ? 'text' : 'reasoning', event.delta, !(cursor & CURSOR_STEP_BOUNDARY)));

    case 'tool.input.start':
    case 'tool.input.delta':
    case 'tool.call':
    case 'tool.progress':
    case 'tool.done':
    case 'tool.error':
      return reply(s, seq, updateToolPart(list, cursor, event, toolFields, event));

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

    case 'approval.requested': {
      const pending = event.approval;
      draft = next(s, seq, updateToolPart(list, cursor, pending, toolFields, event)!, cursor | CURSOR_OPEN);
      draft.status = 'awaiting-approval';
      draft.pendingApproval = pending;
      break;
    }

    case 'approval.resolved': {
      draft = next(s, seq, updateToolPart(list, cursor, event, toolFields, event) ?? list, cursor);
      const pending = s.pendingApproval?.approvalId === event.approvalId ? null : s.pendingApproval;
      draft.pendingApproval = pending;
      if (s.status === 'awaiting-approval' && !pending) draft.status = 'submitted';
      break;
    }

    case 'step.done':
      draft = next(s, seq, list, cursor);
      draft.usage = event.usage;
      break;

    case 'run.done':
    case 'error': {
      // Both end the run: unfinished calls of a stopped or failed run are cancelled.
      const failed = event.type === 'error';
      const reason = failed ? null : event.finishReason;
      draft = next(s, seq, failed || reason === 'aborted' ? cancelUnfinishedTools(list) : list, cursor);
      draft.status = failed ? 'error' : reason === 'awaiting-approval' || reason === 'aborted' ? reason : 'idle';
      if (reason !== 'awaiting-approval') draft.pendingApproval = null;
      draft.error = failed ? event.error : null;
      if (!failed) draft.usage = event.usage;
      draft.finishReason = reason;
      break;
    }

    default:
      return undefined;
  }
  draft.runId = event.runId;
  return draft as Snapshot;
}
