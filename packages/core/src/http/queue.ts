import { ERROR_CODES, SDKError } from '../errors.js';
import type { AgentSessions } from '../contracts/agent-session.js';
import type { ClientAgent } from '../protocol/client-agent.js';
import { HttpError } from './errors.js';
import { parseMessageBody } from './validate.js';
import type { ContentPart } from '../messages.js';

// `POST /sessions/:id/queue` and `DELETE /sessions/:id/queue/:queueId` (docs/http.md): messages
// sent while a turn runs. The owner is checked by `enqueue` / `unqueue` (another principal's
// session is unknown: 404), before anything is stored.

/** The queue methods of an agent's sessions; `LOUSHO_SESSION_LIST_UNSUPPORTED`-like 501 for an agent without them. */
export function queueOf(agent: ClientAgent): Required<Pick<AgentSessions, 'enqueue' | 'unqueue'>> {
  const { enqueue, unqueue } = agent.sessions;
  if (!enqueue || !unqueue) {
    throw new SDKError(ERROR_CODES.LOUSHO_SESSION_LIST_UNSUPPORTED, 'This agent cannot queue messages.', { hint: 'Serve an agent made by createAgent().' });
  }
  return { enqueue: enqueue.bind(agent.sessions), unqueue: unqueue.bind(agent.sessions) };
}

/** `{ input, mode?, metadata? }`: the input as a turn's (user content only), `mode` `queue` (default) or `steer`. */
export function parseQueueBody(body: unknown): { input: string | ContentPart[]; mode: 'queue' | 'steer'; metadata?: Record<string, unknown> } {
  const parsed = parseMessageBody(body);
  const mode = (body as { mode?: unknown }).mode ?? 'queue';
  if (mode !== 'queue' && mode !== 'steer') throw new HttpError(400, ERROR_CODES.LOUSHO_INVALID_INPUT, '"mode" must be "queue" or "steer" when given.');
  return { ...parsed, mode };
}
