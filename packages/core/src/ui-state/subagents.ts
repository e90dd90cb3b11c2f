import type { SubagentRef } from '../agent/subagents/types.js';
import type { AgentStreamEvent } from '../events/types.js';
import { merge, partsOf, withParts, type MessageList } from './message-ops.js';
import { reduceEvent } from './reduce.js';
import type { AgentUIState, UIPart, UIToolPart } from './types.js';

// Sub-agent nesting, a module of its own: the reducer's `nest` slot. The public `reduceAgentEvents`
// fills it statically; a browser client loads it with import() at its first sub-agent event, so a
// page whose agent never delegates does not download it (docs/protocol.md, "Size").

/**
 * A sub-agent's event (it carries `subagent`) applied in the transcript of the tool part that
 * started that sub-agent, `part.subagent.parts`, at any depth: the list with it, or undefined
 * when there is no such part or nothing changed. Sub-agents run inside the current reply, so only
 * its last message is searched.
 */
export function nestEvent(list: MessageList, event: AgentStreamEvent, ref: SubagentRef): MessageList | undefined {
  const m = list.length - 1;
  const message = list.at(m);
  const hit = message && route(message.parts, event, ref);
  return hit && withParts(list, m, message!, partsOf(message!).set(hit[0], hit[1]));
}

/** The part of `parts` (searched from the end) whose sub-agent takes the event, and its next version. */
function route(parts: readonly UIPart[], event: AgentStreamEvent, ref: SubagentRef): [number, UIToolPart] | undefined {
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
      (inner = sub.parts.slice())[hit[0]] = hit[1];
    } else continue;
    // A call waiting for a person pauses the sub-agent (and every one it runs in).
    return inner && [i, merge(part, { subagent: { name: (sub || ref).name, status: event.type === 'approval.requested' ? 'awaiting-approval' : 'running', parts: inner } })];
  }
  return undefined;
}
