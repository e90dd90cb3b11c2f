import type { AgentSessions, SessionState } from '../contracts/agent-session.js';
import type { AgentStreamEvent } from '../contracts/events.js';
import type { Message } from '../messages.js';
import type { AgentUIState } from '../ui-state/types.js';
import { replayTranscript } from '../ui-state/transcript.js';
import type { reduceAgentEvents } from '../ui-state/reduce-agent-events.js';

/** `reduceAgentEvents`, passed in: the in-process transport's chunk loads it on demand (importing it here would cost every HTTP client a preload list). */
export type Reducer = typeof reduceAgentEvents;

/**
 * The UI state a session's event log builds: the transcript's first `runStartIndex` messages (a
 * session whose older runs were logged by a version that kept only the latest run's events; 0
 * otherwise), then the logged events, up to `throughSeq` when given. It is exactly what a client
 * that followed the session from its start built live: the log holds every run, compacted.
 */
export function stateFromSessionLog(reduce: Reducer, messages: readonly Message[], runStartIndex: number, log: readonly AgentStreamEvent[], throughSeq = Infinity): AgentUIState {
  const first = log[0] as (AgentStreamEvent & { fromSeq?: number }) | undefined;
  let state = replayTranscript(reduce, messages.slice(0, runStartIndex), null, { lastSeq: first ? (first.fromSeq ?? first.seq) - 1 : 0 });
  for (const event of log) {
    if (event.seq > throughSeq) break;
    state = reduce(state, event);
  }
  return state;
}

/**
 * A session's UI state as a client shows it after a reload: its event log reduced (see
 * `stateFromSessionLog`). So earlier turns come back as they streamed (display names, artifacts,
 * approval decisions, errors), a run still going shows its partial reply, and an ended one its
 * pending approval, error or stop; events after `state.lastSeq` continue it exactly.
 */
export function sessionUIState(reduce: Reducer, sessions: Pick<AgentSessions, 'get' | 'eventsAfter'>, sessionId: string): { session: SessionState; state: AgentUIState } | undefined {
  const session = sessions.get(sessionId);
  if (!session) return undefined;
  const log = sessions.eventsAfter(sessionId, 0);
  const base = session.runStartIndex;
  if (log.length === 0 || typeof base !== 'number' || base > session.messages.length) {
    // Nothing logged (or an agent that does not say where its log starts): the transcript alone.
    const state = replayTranscript(reduce, session.messages, session.pendingApproval, { lastSeq: session.lastSeq, ...(session.status === 'running' ? { status: 'streaming' } : {}) });
    return { session, state };
  }
  // A state that ends right after a `step.start` would lose, through JSON, that a step began (the
  // step's first text would join the last text part): that event is left to the stream, which the
  // client follows from `state.lastSeq`.
  const trailingStep = session.status === 'running' && log[log.length - 1]!.type === 'step.start';
  return { session, state: stateFromSessionLog(reduce, session.messages, base, trailingStep ? log.slice(0, -1) : log) };
}
