import type { AgentSessions } from '../agent/create-agent.js';
import { SDKError } from '../errors.js';
import { EventFeed, isLegEnd } from './event-feed.js';

/** What following a session needs from an agent (type only: nothing of the agent loop is imported). */
export type SessionSource = Pick<AgentSessions, 'get' | 'eventsAfter' | 'subscribe'>;

/**
 * The events of a session after `afterSeq`: those still in its log, then, while a run leg is
 * going, the live ones until it ends. Without `afterSeq`, the whole log (every run of the session).
 * Throws a `LOUSHO_STREAM_GAP` error when events after `afterSeq` were dropped from the log
 * (or `afterSeq` is past the last event): nothing is skipped silently.
 */
export function followSession(sessions: SessionSource, sessionId: string, afterSeq?: number): EventFeed {
  const feed = new EventFeed();
  const view = sessions.get(sessionId);
  if (!view) {
    if (afterSeq !== undefined && afterSeq > 0) throw streamGapError(sessionId, afterSeq, 1, 0);
    feed.end();
    return feed;
  }
  const running = view.status === 'running';
  let replayedUpTo = Infinity;
  let unsubscribe: (() => void) | undefined;
  if (running) {
    // Subscribed before reading the log, in the same tick: no event can fall in between.
    unsubscribe = sessions.subscribe(sessionId, (event) => {
      if (event.seq <= replayedUpTo) return;
      feed.push(event);
      // A leg whose process stopped ends with `run.interrupted`; the stream ends there too unless a
      // run took the session over (it starts right after it).
      if (isLegEnd(event) || (event.type === 'run.interrupted' && sessions.get(sessionId)?.status === 'interrupted')) feed.end();
    });
    feed.onClose(unsubscribe);
  }
  const replay = sessions.eventsAfter(sessionId, afterSeq ?? 0);
  if (afterSeq !== undefined) {
    const lastSeq = sessions.get(sessionId)?.lastSeq ?? view.lastSeq;
    const first = replay[0];
    // A replayed merged delta starts at its `fromSeq`.
    const firstSeq = first && 'fromSeq' in first ? (first.fromSeq ?? first.seq) : first?.seq;
    if (afterSeq > lastSeq || (afterSeq < lastSeq && firstSeq !== afterSeq + 1)) {
      unsubscribe?.();
      throw streamGapError(sessionId, afterSeq, first?.seq ?? lastSeq + 1, lastSeq);
    }
  }
  for (const event of replay) feed.push(event);
  const last = replay[replay.length - 1];
  replayedUpTo = last ? last.seq : (afterSeq ?? 0);
  // (A view that still says running while the log already ends the leg: that leg is over.)
  if (!running || (last && isLegEnd(last))) feed.end();
  return feed;
}

/** The resume point is outside the log: says what the log holds, so the caller can re-read the session. */
function streamGapError(sessionId: string, after: number, firstSeq: number, lastSeq: number): SDKError {
  const what =
    after > lastSeq
      ? `event ${after} is past the last one (${lastSeq})`
      : `the events after ${after} are no longer kept (the log starts at ${firstSeq})`;
  // An SDKError (this runs on the server): the HTTP handler answers it as 409 with this code.
  return new SDKError('LOUSHO_STREAM_GAP', `Cannot resume session '${sessionId}': ${what}.`, {
    hint: 'Read the session again (GET /sessions/:id) and resume from its lastSeq.',
  });
}
