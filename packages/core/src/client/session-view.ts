import type { AgentSessions, SessionState } from '../agent/create-agent.js';
import { reduceAgentEvents, stateFromTranscript, type AgentUIState } from '../ui-state/index.js';

/**
 * A session's UI state as a client shows it after a reload: the transcript before the latest run
 * (`stateFromTranscript`), then the latest run's logged events reduced on top. So a run still
 * going shows its partial reply, and an ended one its pending approval, error or stop; events
 * after `state.lastSeq` continue it exactly.
 */
export function sessionUIState(sessions: Pick<AgentSessions, 'get' | 'eventsAfter'>, sessionId: string): { session: SessionState; state: AgentUIState } | undefined {
  const session = sessions.get(sessionId);
  if (!session) return undefined;
  const log = sessions.eventsAfter(sessionId, 0);
  const base = session.runStartIndex;
  const first = log[0];
  if (first === undefined || typeof base !== 'number' || base > session.messages.length) {
    // Nothing logged (or an agent that does not say where its log starts): the transcript alone.
    const state = stateFromTranscript(session.messages, session.pendingApproval, { lastSeq: session.lastSeq, ...(session.status === 'running' ? { status: 'streaming' } : {}) });
    return { session, state };
  }
  let state = stateFromTranscript(session.messages.slice(0, base), null, { lastSeq: first.seq - 1 });
  // A state that ends right after a `step.start` would lose, through JSON, that a step began (the
  // step's first text would join the last text part): that event is left to the stream, which the
  // client follows from `state.lastSeq`.
  const end = log.length - (session.status === 'running' && log[log.length - 1]!.type === 'step.start' ? 1 : 0);
  for (let i = 0; i < end; i++) state = reduceAgentEvents(state, log[i]!);
  return { session, state };
}
