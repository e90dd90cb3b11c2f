import type { AgentStreamEvent } from '../events/types.js';
import { reduceEvent, setNest } from './reduce.js';
import { nestEvent } from './subagents.js';
import type { AgentUIState, AnyUIToolPart, UIToolPart } from './types.js';

/**
 * Fills the reducer's sub-agent slot (`nest` in reduce.ts) statically: server code that reduces
 * with `reduceEvent` (session-view.ts) calls it first. A call, not a module-level statement: that
 * would be kept by bundlers in every app that imports core, and the browser client must not ship
 * the nesting up front.
 */
export const nestSubagents = (): unknown => setNest(nestEvent);

/**
 * Applies one agent event to the UI state and returns the next state. Pure: `state` is never
 * changed, and whatever the event does not touch (earlier messages, other parts, the messages
 * array itself when no message changed) keeps its identity.
 *
 * - An event whose `seq` is not above `state.lastSeq` was already applied: the same state is
 *   returned, so a resumed stream never duplicates text or parts.
 * - An event type it does not know is ignored (same state returned).
 * - A sub-agent's event (it carries `subagent`) goes into the transcript of the tool part that
 *   started that sub-agent, `part.subagent.parts`.
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
  nestSubagents();
  return reduceEvent(state, event);
}
