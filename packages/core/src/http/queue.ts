import { ERROR_CODES } from '@lousho/protocol';
import { HttpError } from './errors.js';
import { parseMessageBody } from './validate.js';
import type { ContentPart } from '@lousho/protocol';

// `POST /sessions/:id/queue` (docs/http.md): a change to the queue of messages sent while a turn
// runs. The owner is checked by the handler and again by `enqueue` / `unqueue` (another
// principal's session is unknown: 404), before anything is stored.

/** A change to a session's queue: a message to add, or the id of one to remove. */
export type QueueBody = { input: string | ContentPart[]; mode: 'queue' | 'steer' | 'turn'; metadata?: Record<string, unknown> } | { remove: string };

/** `{ input, mode?, metadata? }` (the input as a turn's: user content only; `mode` `queue` by default, `steer` or `turn`), or `{ remove: queueId }`. */
export function parseQueueBody(body: unknown): QueueBody {
  if (typeof body === 'object' && body !== null && 'remove' in body) {
    const { remove } = body as { remove: unknown };
    if (typeof remove !== 'string' || remove === '') throw new HttpError(400, ERROR_CODES.LOUSHO_INVALID_INPUT, '"remove" must be the id of a queued message.');
    return { remove };
  }
  const parsed = parseMessageBody(body);
  const mode = (body as { mode?: unknown }).mode ?? 'queue';
  if (mode !== 'queue' && mode !== 'steer' && mode !== 'turn') throw new HttpError(400, ERROR_CODES.LOUSHO_INVALID_INPUT, '"mode" must be "queue", "steer" or "turn" when given.');
  return { ...parsed, mode };
}
