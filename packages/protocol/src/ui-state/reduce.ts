import type { AgentStreamEvent } from '../contracts/events.js';
import { appendReplyPart, contentParts, endLegParts, pushMessage, stepCursor, updateToolPart, type MessageList, type PartFields, type ToolCallRef } from './message-ops.js';
import { listOf } from './persistent-list.js';
import { CURSOR_OPEN, CURSOR_STEP_BOUNDARY } from './cursor.js';
import { adoptState, cursorOfState, INITIAL, Snapshot } from './snapshot.js';
import type { AgentUIState, AnyUIToolPart, UIToolPart } from './types.js';
import type { GuardrailInfo } from '../contracts/guardrails.js';

/**
 * The reducer a browser client ships up front: `reduceAgentEvents` (reduce-agent-events.ts) for
 * the events of a run that streams text and calls tools. It answers undefined for any other
 * event (an approval's, a sub-agent's, a flow's, a type from a newer server): only the full
 * reducer knows those, and the client loads it when the first one comes (client-core.ts).
 */
export function reduceEvent<ToolPart extends AnyUIToolPart = UIToolPart>(
  state: AgentUIState<ToolPart> | undefined,
  event: AgentStreamEvent,
): AgentUIState<ToolPart> | undefined {
  const current = adoptState((state ??= INITIAL as AgentUIState<ToolPart>));
  const seq = event.seq;
  const known = typeof seq === 'number';
  return (known && seq <= current.lastSeq ? state : event.subagent ? undefined : apply(current, event, known ? seq : current.lastSeq)) as AgentUIState as AgentUIState<ToolPart>;
}

type ToolEvent = Extract<AgentStreamEvent, { type: `tool.${string}` | `approval.${string}` | `flow.${string}` }>;
type ToolDone = Extract<AgentStreamEvent, { type: 'tool.done' }>;

/**
 * What a tool event does to its call's part: the fields to set on it (with `part` undefined: the
 * fields of a new part for the call), undefined when it changes nothing (or makes no part), null
 * when the event is one this function leaves to the full reducer: a call's failure and progress,
 * a result with artifacts (tool-failures.ts), an approval (approvals.ts), a flow node (flow-nodes.ts).
 */
export function toolFields(event: ToolEvent, part?: UIToolPart): PartFields | undefined | null {
  switch (event.type) {
    case 'tool.input.start':
      // A call that is already there stays as it is.
      return part ? {} : { state: 'input-streaming', argsText: '' };
    case 'tool.input.delta':
      // Streamed argument text, while the arguments are still streaming.
      return part?.state === 'input-streaming' ? { argsText: (part.argsText ?? '') + event.delta } : undefined;
    case 'tool.call':
      return { state: 'running', args: event.args };
    case 'tool.done':
      // A result with artifacts is the full reducer's (tool-failures.ts): most pages never see one.
      return (event as ToolDone).artifacts ? null : { state: 'done', result: event.result };
  }
  return null;
}

/**
 * What the default case of `apply` asks a tool-like event: `toolFields` until the full reducer
 * loads and widens it to flow node events (flow-nodes.ts), so a page that runs no flow does not
 * download their cases.
 */
let partFields = toolFields;
/** Sets what `apply` asks a tool-like event (flow-nodes.ts: `toolFields` and the flow node cases). */
export const setPartFields = (fields: typeof toolFields): void => void (partFields = fields);

/** The next state, or undefined for an event this reducer does not know. */
function apply(s: Snapshot, event: AgentStreamEvent, seq: number): Snapshot | undefined {
  let list = listOf<MessageList>(s)!;
  let cursor = cursorOfState(s);
  let { status, pendingApproval, error, usage, finishReason, guardrail } = s;
  // Reply content: the list with it, or undefined when the event changed no part (then only `seq` moves).
  let reply: MessageList | undefined | null;

  switch (event.type) {
    case 'text.delta':
    case 'reasoning.delta':
      // Joins the reply's last part unless a new step began.
      reply = appendReplyPart(list, cursor, { type: event.type === 'text.delta' ? 'text' : 'reasoning', text: event.delta }, !(cursor & CURSOR_STEP_BOUNDARY));
      break;

    case 'user.message': {
      // Input may carry whole messages; only user and assistant content is shown (a stored history
      // with tool calls renders through `stateFromTranscript`).
      const { role, content } = event.message;
      if (role === 'user' || role === 'assistant') list = pushMessage(list, role, contentParts(content));
      cursor = CURSOR_STEP_BOUNDARY;
      break;
    }

    case 'step.start':
      // (Where its parts begin: a call-starting event looks for its call only among them.)
      cursor = stepCursor(list, cursor) | CURSOR_STEP_BOUNDARY;
      break;

    case 'run.start': {
      // A continuation goes on in the same assistant message (the one a pause or an interruption
      // left, also in a state read from JSON, which keeps no cursor); a new run starts a new one.
      if (event.continuation) cursor |= CURSOR_OPEN;
      else {
        cursor = 0;
        usage = null;
      }
      cursor |= CURSOR_STEP_BOUNDARY;
      status = 'submitted';
      pendingApproval = error = finishReason = guardrail = null;
      break;
    }

    case 'step.done':
      usage = event.usage;
      break;

    case 'run.done':
    case 'error': {
      // They end the leg: unless it paused for a person, no call of it is still going.
      // (`run.interrupted` comes here as a `run.done`, its messages already cut: reduce-agent-events.ts.)
      const failed = event.type === 'error';
      finishReason = failed ? null : event.finishReason;
      // Messages queued meanwhile: the server starts the next turn at once (agent/message-queue.ts).
      status = failed ? 'error' : finishReason === 'awaiting-approval' || finishReason === 'aborted' ? finishReason : s.queued?.length ? 'submitted' : 'idle';
      if (finishReason !== 'awaiting-approval') {
        pendingApproval = null;
        list = endLegParts(list);
      }
      error = failed ? event.error : null;
      // (An `error` event has no guardrail.)
      guardrail = (event as { guardrail?: GuardrailInfo }).guardrail || null;
      // A reply an output guardrail blocked is withheld: the full reducer's (reduce-agent-events.ts).
      if (guardrail?.stage === 'output') return;
      if (!failed) usage = event.usage;
      break;
    }

    default:
      // A tool event; `partFields` answers null for any other type, which this reducer leaves to
      // the full one (compactions' too: reduce-agent-events.ts).
      reply = updateToolPart(list, cursor, event as ToolCallRef, partFields, event as ToolEvent);
      if (reply === null) return undefined;
  }
  if (reply) {
    // Reply content arrived: the reply is open, the run is streaming.
    list = reply;
    cursor = (cursor & ~CURSOR_STEP_BOUNDARY) | CURSOR_OPEN;
    if (status === 'submitted' || status === 'idle') status = 'streaming';
  }
  // Every event says which run the state is in now.
  return new Snapshot(list, cursor, { status, pendingApproval, error, usage, finishReason, runId: event.runId, guardrail, lastSeq: seq, queued: s.queued });
}
