import type { PendingApprovalInfo } from '../contracts/events.js';
import type { Message } from '../messages.js';
import { reduceAgentEvents } from './reduce-agent-events.js';
import { replayTranscript, type TranscriptStateOptions } from './transcript.js';
import type { AgentUIState, AnyUIToolPart, UIToolPart } from './types.js';

/**
 * Rebuilds the UI state from a stored transcript (e.g. on the server, or after a page reload),
 * with the pending approval when the session is paused on one. Tool artifacts and approval
 * decisions are not part of a transcript, so they are not restored.
 *
 * The transcript is replayed as the events that would have streamed it, through the reducer: a
 * user message as `user.message`; an assistant message as a `step.start` (the steps of one turn
 * form one UI message), its text as a `text.delta` and its tool calls as `tool.call`; a tool message
 * as its call's `tool.done` or `tool.error`; the pending approval as `approval.requested`. System
 * messages are not shown.
 */
export function stateFromTranscript<ToolPart extends AnyUIToolPart = UIToolPart>(
  messages: readonly Message[],
  pending?: PendingApprovalInfo | null,
  options?: TranscriptStateOptions,
): AgentUIState<ToolPart> {
  return replayTranscript<ToolPart>(reduceAgentEvents, messages, pending, options);
}
