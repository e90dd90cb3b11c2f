import type { AgentStreamEvent } from '../contracts/events.js';
import { contentParts } from './message-ops.js';
import { listOf } from './persistent-list.js';
import { cursorOfState, Snapshot } from './snapshot.js';
import type { MessageList } from './message-ops.js';
import type { AgentUIState, UIQueuedMessage } from './types.js';

// The session's queue of messages sent while a turn ran, a module of the full reducer
// (reduce-agent-events.ts): a browser client loads it with the first queue event.

/** `message.queued` or `message.unqueued`. */
export type QueueEvent = Extract<AgentStreamEvent, { type: `message.${string}` }>;

/**
 * A queued message joins `queued`; an unqueued one leaves it (a steered or sent one shows next as
 * the `user.message` that follows it). Nothing else changes: the messages, the status, the run.
 */
export function applyQueueEvent(s: Snapshot, event: QueueEvent, seq: number): Snapshot {
  const before = s.queued ?? [];
  const queued: readonly UIQueuedMessage[] =
    event.type === 'message.queued'
      ? [...before.filter((item) => item.id !== event.queueId), { id: event.queueId, mode: event.mode, parts: contentParts(event.message.content) }]
      : before.filter((item) => item.id !== event.queueId);
  const { pendingApproval, error, usage, finishReason, runId, guardrail } = s;
  // A leg that ended with messages waiting shows the next turn coming (`submitted`, reduce.ts);
  // the last of them removed instead of sent, none comes.
  const status = s.status === 'submitted' && finishReason !== null && queued.length === 0 && event.type === 'message.unqueued' && event.reason !== 'sent' ? 'idle' : s.status;
  return new Snapshot(listOf<MessageList>(s)!, cursorOfState(s), { status, pendingApproval, error, usage, finishReason, runId, guardrail, lastSeq: seq, queued });
}

/** `next` showing `queued` (a state built without them: see `run.interrupted` in reduce-agent-events.ts). */
export function withQueued(next: AgentUIState | undefined, queued: readonly UIQueuedMessage[] | undefined): AgentUIState | undefined {
  if (!next || !queued) return next;
  const s = next as Snapshot;
  const { status, pendingApproval, error, usage, finishReason, runId, guardrail, lastSeq } = s;
  return new Snapshot(listOf<MessageList>(s)!, cursorOfState(s), { status, pendingApproval, error, usage, finishReason, runId, guardrail, lastSeq, queued });
}
