import type { AgentStreamEvent } from '../contracts/events.js';
import { applyApproval, type ApprovalEvent } from './approvals.js';
import { flowNodeFields } from './flow-nodes.js';
import { reduceEvent, setPartFields } from './reduce.js';
import { appendReplyPart, withParts, type MessageList } from './message-ops.js';
import { withheldBy, withheldReplyText } from '../guardrails/withheld.js';
import { listOf, PersistentList } from './persistent-list.js';
import { CURSOR_OPEN, CURSOR_STEP_BOUNDARY, CURSOR_STEP_SHIFT } from './cursor.js';
import { adoptState, cursorOfState, INITIAL, Snapshot } from './snapshot.js';
import { applySubagentEvent } from './subagents.js';
import { applyQueueEvent, withQueued } from './queue.js';
import type { AgentUIState, AnyUIToolPart, UIMessage, UIPart, UIToolPart } from './types.js';

// The full reducer: `reduceEvent` (reduce.ts, what a browser client ships up front) and the events
// it leaves to this module: approvals (approvals.ts), sub-agents (subagents.ts), flow nodes
// (flow-nodes.ts), compactions' dividers and a leg whose process stopped (`run.interrupted`). A
// browser client loads this module with import() at the first event its reducer does not know
// (client-core.ts; docs/protocol.md, "Size").

/**
 * Applies one agent event to the UI state and returns the next state. Pure: `state` is never
 * changed, and whatever the event does not touch (earlier messages, other parts, the messages
 * array itself when no message changed) keeps its identity.
 *
 * - An event whose `seq` is not above `state.lastSeq` was already applied: the same state is
 *   returned, so a resumed stream never duplicates text or parts.
 * - An event type it does not know is ignored (same state returned).
 * - A sub-agent's event (it carries `subagent`) goes into the transcript of the tool part that
 *   started that sub-agent, `part.subagent.parts`; its approval events also pause and resume the
 *   whole run (`status`, `pendingApproval`), which is the lead's.
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
  state ??= INITIAL as AgentUIState<ToolPart>;
  const s = adoptState(state);
  const seq = event.seq;
  const known = typeof seq === 'number';
  if (known && seq <= s.lastSeq) return state;
  const ref = event.subagent;
  const next = ref
    ? applySubagentEvent(s, event, ref, reduceAgentEvents)
    : event.type === 'approval.requested' || event.type === 'approval.resolved'
      ? applyApproval(s, event as ApprovalEvent, known ? seq : s.lastSeq)
      : event.type === 'message.queued' || event.type === 'message.unqueued'
      ? applyQueueEvent(s, event, known ? seq : s.lastSeq)
      : event.type === 'compaction.done'
        ? applyCompaction(s, event, known ? seq : s.lastSeq)
        : event.type === 'run.done' && event.guardrail?.stage === 'output'
        ? applyWithheld(s, event)
        : event.type === 'tool.done' && withheldBy(event.result) !== undefined
        ? applyWithheldSubagent(s, event, withheldBy(event.result)!)
        : event.type === 'run.interrupted'
        ? // The leg's process stopped: what it showed after the run's checkpoint goes (the run goes
          // on from there and streams it again), and the next leg's `run.start` goes on in the reply
          // the checkpoint kept, if the last message is one, of which only the parts the checkpoint
          // covers stay; the whole reply counts as the step in progress, so the calls the leg runs
          // again keep their parts. Then it ends the leg as a `run.done` would.
          // (Messages waiting stay waiting: no turn starts after an interruption, unlike after a `run.done`.)
          withQueued(
            reduceEvent(new Snapshot(PersistentList.from(keptByCheckpoint(listOf<MessageList>(s)!.toArray(), event.messages, event.parts)), CURSOR_OPEN | (1 << CURSOR_STEP_SHIFT), { ...s, queued: undefined }), { ...event, type: 'run.done' } as unknown as AgentStreamEvent),
            s.queued,
          )
        : reduceEvent(s, event);
  return (next ?? state) as AgentUIState as AgentUIState<ToolPart>;
}

/**
 * A `run.done` after an output guardrail blocked the reply: the leg ends as with any `run.done`, and
 * the reply's text gives way to the placeholder the transcript keeps (the stored log says the same,
 * so a reload shows what the live page shows: compact-log.ts).
 */
function applyWithheld(s: Snapshot, event: Extract<AgentStreamEvent, { type: 'run.done' }>): Snapshot | undefined {
  const guardrail = event.guardrail!;
  const done = reduceEvent(s, { ...event, guardrail: undefined });
  if (!done) return undefined;
  const ended = adoptState(done);
  const { status, pendingApproval, error, usage, finishReason, runId, lastSeq } = ended;
  return new Snapshot(withholdReply(listOf<MessageList>(ended)!, guardrail.name), cursorOfState(ended), { status, pendingApproval, error, usage, finishReason, runId, guardrail, lastSeq, queued: ended.queued });
}

/**
 * The last message with its reply text withheld: the text parts after its last tool part (the final
 * step's reply, which an output guardrail read) give way to one part saying it was withheld.
 */
function withholdReply(list: MessageList, guardrail: string): MessageList {
  const last = list.at(list.length - 1);
  if (last?.role !== 'assistant') return list;
  return withParts(list, list.length - 1, last, PersistentList.from(withheldParts(last.parts, guardrail)));
}

/** A reply's parts with its final text (after its last tool part) withheld. */
function withheldParts(all: readonly UIPart[], guardrail: string): UIPart[] {
  let start = all.length;
  while (start > 0 && (all[start - 1]!.type === 'text' || all[start - 1]!.type === 'reasoning')) start--;
  const parts = all.filter((part, i) => i < start || part.type !== 'text');
  parts.push({ type: 'text', text: withheldReplyText(guardrail) });
  return parts;
}

/**
 * A delegate call's `tool.done` whose result says an output guardrail blocked the sub-agent's reply:
 * the call ends as any call does, and the reply the sub-agent streamed gives way to the placeholder
 * in its part's transcript (the stored log says the same: compact-log.ts).
 */
function applyWithheldSubagent(s: Snapshot, event: Extract<AgentStreamEvent, { type: 'tool.done' }>, guardrail: string): Snapshot | undefined {
  const done = reduceEvent(s, event);
  if (!done) return undefined;
  const ended = adoptState(done);
  const list = listOf<MessageList>(ended)!;
  const last = list.at(list.length - 1);
  const parts = last?.parts;
  if (!last || !parts) return ended;
  for (let i = parts.length; i--; ) {
    const part = parts[i] as UIToolPart;
    if (part.type !== 'tool' || part.toolCallId !== event.toolCallId || !part.subagent) continue;
    const next = parts.slice();
    next[i] = { ...part, subagent: { ...part.subagent, parts: withheldParts(part.subagent.parts, guardrail) } };
    const { status, pendingApproval, error, usage, finishReason, runId, guardrail: blocked, lastSeq } = ended;
    return new Snapshot(withParts(list, list.length - 1, last, PersistentList.from(next)), cursorOfState(ended), { status, pendingApproval, error, usage, finishReason, runId, guardrail: blocked, lastSeq, queued: ended.queued });
  }
  return ended;
}

/** The first `messages` messages, the last of them with only its first `parts` parts. */
function keptByCheckpoint(all: readonly UIMessage[], messages: number, parts: number): UIMessage[] {
  const kept = all.slice(0, messages);
  const last = kept[kept.length - 1];
  // (A plain message: the reducer turns it into a list when it changes it.)
  if (last && parts < last.parts.length) kept[kept.length - 1] = { id: last.id, role: last.role, parts: last.parts.slice(0, parts) };
  return kept;
}

/**
 * A compaction's divider: a part of its own (never joined: two compactions in one step show as
 * two) that says what was done, which opens the reply like any reply content does in `reduceEvent`
 * (`compaction.start` shows nothing: ignored). A compaction that changed nothing shows nothing.
 */
function applyCompaction(s: Snapshot, event: AgentStreamEvent & { type: 'compaction.done' }, seq: number): Snapshot | undefined {
  const { pruned, summarized } = event;
  if (!(pruned > 0) && !(summarized > 0)) return undefined;
  const { status, pendingApproval, error, usage, finishReason, guardrail } = s;
  const cursor = cursorOfState(s);
  const list = appendReplyPart(listOf<MessageList>(s)!, cursor, { type: 'compaction', pruned, summarized });
  return new Snapshot(list, (cursor & ~CURSOR_STEP_BOUNDARY) | CURSOR_OPEN, {
    status: status === 'submitted' || status === 'idle' ? 'streaming' : status,
    pendingApproval,
    error,
    usage,
    finishReason,
    runId: event.runId,
    guardrail,
    lastSeq: seq,
    queued: s.queued,
  });
}

// A flow node's run is reduced by this reducer too (its approvals, a sub-agent's in it).
setPartFields(flowNodeFields(reduceAgentEvents));
