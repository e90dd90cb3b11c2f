import { ERROR_CODES, type HandlerAgent, type SessionState } from '@lousho/core';
import { AgUiRequestError } from './errors.js';

/**
 * The thread's session, read from the agent's store (it may predate a restart, or come from another
 * process). Another principal's session, or one without an owner, is answered as unknown (404).
 */
export async function ownedSession(agent: Pick<HandlerAgent, 'sessions'>, threadId: string, principal: string): Promise<SessionState | undefined> {
  const session = await agent.sessions.load(threadId);
  if (session !== undefined && session.owner !== principal) throw unknownThread();
  return session;
}

export function unknownThread(): AgUiRequestError {
  return new AgUiRequestError(404, ERROR_CODES.LOUSHO_SESSION_NOT_FOUND, 'No thread with this id.');
}

