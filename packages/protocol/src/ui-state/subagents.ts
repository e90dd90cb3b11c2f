import type { SubagentRef } from '../contracts/subagents.js';
import type { AgentStreamEvent } from '../contracts/events.js';
import { runAfterApproval } from './approvals.js';
import { updateToolPart, type MessageList } from './message-ops.js';
import { listOf } from './persistent-list.js';
import { CURSOR_OPEN, CURSOR_STEP_BOUNDARY } from './cursor.js';
import { adoptState, cursorOfState, Snapshot } from './snapshot.js';
import type { AgentUIState, UIPart, UISubagent, UIToolPart } from './types.js';

// Sub-agent nesting, a module of the full reducer (reduce-agent-events.ts): a browser client loads
// it with the first event it does not know (docs/protocol.md, "Size"), so a page whose agent never
// delegates does not download it.

/** The reducer a sub-agent's transcript is reduced with: the full one, without nesting. */
type ReduceReply = (state: AgentUIState, event: AgentStreamEvent) => AgentUIState;

/**
 * A sub-agent's event (it carries `subagent`): into the transcript of the tool part that started
 * that sub-agent, `part.subagent.parts`, at any depth; its approval events also pause and resume
 * the whole run (`status`, `pendingApproval`), which is the lead's.
 */
export function applySubagentEvent(s: Snapshot, event: AgentStreamEvent, ref: SubagentRef, reduceReply: ReduceReply): Snapshot {
  const list = listOf<MessageList>(s)!;
  // (An event the sub-agent's part does not take, e.g. no such part, changes no message.)
  const nested = nestEvent(list, event, ref, reduceReply);
  let { status, pendingApproval } = s;
  if (event.type === 'approval.requested' || event.type === 'approval.resolved') ({ status, pendingApproval } = runAfterApproval(s, event));
  else if (nested && (status === 'submitted' || status === 'idle')) status = 'streaming';
  // The run, its usage and its end stay the lead's: a sub-agent's `step.done` carries its own usage.
  // (The reply is open: a sub-agent's events only come while the lead's tool calls run, inside its reply.)
  const { error, usage, finishReason, runId, guardrail } = s;
  return new Snapshot(nested || list, (cursorOfState(s) & ~CURSOR_STEP_BOUNDARY) | CURSOR_OPEN, { status, pendingApproval, error, usage, finishReason, runId, guardrail, lastSeq: event.seq, queued: s.queued });
}

/**
 * A sub-agent's event applied in the transcript of the tool part that started that sub-agent,
 * `part.subagent.parts`, at any depth: the list with it, or undefined when there is no such part
 * or nothing changed. Sub-agents run inside the current reply, so only its last message is searched.
 */
function nestEvent(list: MessageList, event: AgentStreamEvent, ref: SubagentRef, reduceReply: ReduceReply): MessageList | undefined | null {
  const parts = list.at(list.length - 1)?.parts;
  const hit = parts && route(parts, event, ref, reduceReply);
  return hit && updateToolPart(list, CURSOR_OPEN, parts[hit[0]] as UIToolPart, (subagent) => ({ subagent }), hit[1]);
}

/**
 * The part of `parts` (searched from the end) whose sub-agent takes the event, and that
 * sub-agent's next state. `parts` are a transcript at `depth` (1: the lead's reply): the call
 * that started the sub-agent is looked for only at the sub-agent's own depth, since the runs at
 * each depth number their calls on their own (an id of the lead's may come again in a sub-agent).
 */
function route(parts: readonly UIPart[], event: AgentStreamEvent, ref: SubagentRef, reduceReply: ReduceReply, depth = 1): [number, UISubagent] | undefined {
  for (let i = parts.length; i--; ) {
    const part = parts[i] as UIToolPart;
    const sub = part.subagent;
    let inner: readonly UIPart[] | undefined;
    if (depth < ref.depth) {
      const hit = sub && route(sub.parts, event, ref, reduceReply, depth + 1);
      if (!hit) continue;
      (inner = sub.parts.slice())[hit[0]] = Object.assign({}, sub.parts[hit[0]], { subagent: hit[1] });
    } else if (part.toolCallId === ref.toolCallId) {
      // The sub-agent's parts are a reply of their own: the reducer applies the event to them.
      const own = adoptState({ messages: [{ id: '', role: 'assistant', parts: sub ? sub.parts : [] }], status: 'streaming' });
      inner = reduceReply(own, { ...event, subagent: undefined }).messages[0]!.parts;
    } else continue;
    // A call waiting for a person pauses the sub-agent (and every one it runs in).
    return [i, { name: (sub || ref).name, status: event.type === 'approval.requested' ? 'awaiting-approval' : 'running', parts: inner }];
  }
  return undefined;
}
