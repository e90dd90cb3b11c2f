import type { AgentSessions } from '../contracts/agent-session.js';
import { ERROR_CODES, SDKError } from '../errors.js';
import type { ClientAgent } from './client-agent.js';

/**
 * The queue methods of an agent's sessions (messages sent while a turn runs), for the HTTP
 * handler and the in-process client; `LOUSHO_QUEUE_UNSUPPORTED` for an agent without them.
 */
export function queueOf(agent: ClientAgent): Required<Pick<AgentSessions, 'enqueue' | 'unqueue'>> {
  const { enqueue, unqueue } = agent.sessions;
  if (!enqueue || !unqueue) {
    throw new SDKError(ERROR_CODES.LOUSHO_QUEUE_UNSUPPORTED, 'This agent cannot queue messages sent while a turn runs.', {
      hint: 'Serve an agent made by createAgent(), or send with { mode: "turn" } after the turn ends.',
    });
  }
  return { enqueue: enqueue.bind(agent.sessions), unqueue: unqueue.bind(agent.sessions) };
}
