import type { SubagentRef } from '../agent/subagents/types.js';
import type { AgentStreamEvent } from '../events/types.js';
import { updateToolPart, type MessageList } from './message-ops.js';
import { listOf } from './persistent-list.js';
import { reduceEvent, setPartFields, toolFields } from './reduce.js';
import { adoptState, CURSOR_OPEN, Snapshot } from './snapshot.js';
import type { AgentUIState, AnyUIToolPart, UIFlowNodePart, UIPart, UISubagent, UIToolPart } from './types.js';

// The reducer with sub-agent nesting, a module of its own: a browser client ships `reduceEvent`
// (reduce.ts) and loads this with import() at its first sub-agent event (client-core.ts), so a
// page whose agent never delegates does not download it (docs/protocol.md, "Size").

/**
 * `toolFields` and a flow node's part (see `UIFlowNodePart`): made by its start, its agent run
 * reduced into it; its end is a tool call's end. Here rather than in reduce.ts so a page that runs no
 * flow does not download it.
 */
const partFields: typeof toolFields = (event, part) => {
  const flowEvent = event as Extract<AgentStreamEvent, { type: `flow.${string}` }>;
  switch (flowEvent.type) {
    case 'flow.node.start':
      return { kind: flowEvent.kind, type: 'flow-node', state: 'running' };
    case 'flow.node.event':
      return part && { run: reduceEvent((part as unknown as UIFlowNodePart).run, flowEvent.event as unknown as AgentStreamEvent) };
    case 'flow.node.done':
    case 'flow.node.error':
      return toolFields({ ...flowEvent, type: flowEvent.type === 'flow.node.done' ? 'tool.done' : 'tool.error' } as Parameters<typeof toolFields>[0], part);
  }
  return toolFields(event, part);
};
setPartFields(partFields);

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
  const ref = event.subagent;
  if (!ref) return reduceEvent(state, event);
  const s = adoptState(state ?? {});
  if (event.seq <= s.lastSeq) return state!;
  const list = listOf<MessageList>(s)!;
  // (An event the sub-agent's part does not take, e.g. no such part, changes no message.)
  const nested = nestEvent(list, event, ref);
  let { status, pendingApproval } = s;
  if (event.type === 'approval.requested') {
    status = 'awaiting-approval';
    pendingApproval = event.approval;
  } else if (event.type === 'approval.resolved') {
    if (pendingApproval?.approvalId === event.approvalId) pendingApproval = null;
    if (status === 'awaiting-approval' && !pendingApproval) status = 'submitted';
  } else if (nested && (status === 'submitted' || status === 'idle')) status = 'streaming';
  // The run, its usage and its end stay the lead's: a sub-agent's `step.done` carries its own usage.
  // (The reply is open: a sub-agent's events only come while the lead's tool calls run, inside its reply.)
  const { error, usage, finishReason, runId, guardrail } = s;
  return new Snapshot(nested || list, CURSOR_OPEN, {
    status,
    pendingApproval,
    error,
    usage,
    finishReason,
    runId,
    guardrail,
    lastSeq: event.seq,
  }) as AgentUIState as AgentUIState<ToolPart>;
}

/**
 * A sub-agent's event applied in the transcript of the tool part that started that sub-agent,
 * `part.subagent.parts`, at any depth: the list with it, or undefined when there is no such part
 * or nothing changed. Sub-agents run inside the current reply, so only its last message is searched.
 */
function nestEvent(list: MessageList, event: AgentStreamEvent, ref: SubagentRef): MessageList | undefined | null {
  const parts = list.at(list.length - 1)?.parts;
  const hit = parts && route(parts, event, ref);
  return hit && updateToolPart(list, CURSOR_OPEN, parts[hit[0]] as UIToolPart, (subagent) => ({ subagent }), hit[1]);
}

/** The part of `parts` (searched from the end) whose sub-agent takes the event, and that sub-agent's next state. */
function route(parts: readonly UIPart[], event: AgentStreamEvent, ref: SubagentRef): [number, UISubagent] | undefined {
  for (let i = parts.length; i--; ) {
    const part = parts[i] as UIToolPart;
    const sub = part.subagent;
    let inner: readonly UIPart[] | undefined;
    if (part.toolCallId === ref.toolCallId) {
      // The sub-agent's parts are a reply of their own: the reducer applies the event to them.
      const own = { messages: [{ id: '', role: 'assistant', parts: sub ? sub.parts : [] }], status: 'streaming' } as unknown as AgentUIState;
      inner = reduceEvent(own, { ...event, subagent: undefined }).messages[0]!.parts;
    } else if (sub) {
      const hit = route(sub.parts, event, ref);
      if (!hit) continue;
      (inner = sub.parts.slice())[hit[0]] = Object.assign({}, sub.parts[hit[0]], { subagent: hit[1] });
    } else continue;
    // A call waiting for a person pauses the sub-agent (and every one it runs in).
    return [i, { name: (sub || ref).name, status: event.type === 'approval.requested' ? 'awaiting-approval' : 'running', parts: inner }];
  }
  return undefined;
}

// The default export too: what the client's import() of this module reads (`default`, a property
// name that the minifier cannot shorten but that is shorter than the function's own).
export { reduceAgentEvents as default };
