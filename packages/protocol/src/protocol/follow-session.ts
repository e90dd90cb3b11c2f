import type { AgentSessions } from '../contracts/agent-session.js';
import type { AgentStreamEvent } from '../contracts/events.js';
import { SDKError } from '../errors.js';
import { EventFeed, FEED_PAGE, isLegEnd } from './event-feed.js';

/** What following a session needs from an agent (type only: nothing of the agent loop is imported). */
export type SessionSource = Pick<AgentSessions, 'get' | 'eventsAfter' | 'subscribe'>;

/** The seq an event starts at: a merged delta stands for `fromSeq`..`seq`. */
function firstSeqOf(event: AgentStreamEvent): number {
  return (event as { fromSeq?: number }).fromSeq ?? event.seq;
}

/**
 * The events of a session after `afterSeq`: those still in its log, then, while a run leg is
 * going, the live ones until it ends. Without `afterSeq`, the whole log (every run of the session).
 * Throws a `LOUSHO_STREAM_GAP` error when events after `afterSeq` were dropped from the log
 * (or `afterSeq` is past the last event): nothing is skipped silently.
 *
 * The feed reads the session's log page by page as its reader asks for more (the log holds every
 * event of the latest run anyway), so a reader far behind, or one that stopped reading, costs one
 * page, not a copy of the run. If the log moves on under a slow reader (a new run replaced it), the
 * feed ends early; the reader's resume from its last event then gets the gap error.
 */
export function followSession(sessions: SessionSource, sessionId: string, afterSeq?: number): EventFeed {
  const view = sessions.get(sessionId);
  if (!view) {
    if (afterSeq !== undefined && afterSeq > 0) throw streamGapError(sessionId, afterSeq, 1, 0);
    const feed = new EventFeed();
    feed.end();
    return feed;
  }
  const lastSeq = view.lastSeq;
  // (A view that still says running while the log already ends the leg: that leg is over.)
  const tail = view.status === 'running' ? sessions.eventsAfter(sessionId, lastSeq - 1, 1)[0] : undefined;
  const running = view.status === 'running' && !(tail && isLegEnd(tail));
  // While a leg runs, the feed ends with the first leg end after what is logged now; otherwise
  // with what is logged now. A leg whose process stopped ends with `run.interrupted`: the feed ends
  // there too, unless a run took the session over (it starts right after it, and is followed).
  const ends = (event: AgentStreamEvent): boolean =>
    isLegEnd(event) || (event.type === 'run.interrupted' && sessions.get(sessionId)?.status === 'interrupted');
  let cursor = afterSeq ?? 0;
  // The first page is read now: the resume point is checked against it.
  let pending: AgentStreamEvent[] | undefined = sessions.eventsAfter(sessionId, cursor, FEED_PAGE);
  if (afterSeq !== undefined) {
    const first = pending[0];
    if (afterSeq > lastSeq || (afterSeq < lastSeq && (first === undefined || firstSeqOf(first) !== afterSeq + 1))) {
      throw streamGapError(sessionId, afterSeq, first?.seq ?? lastSeq + 1, lastSeq);
    }
  }

  // Events logged after this read are read when the reader first asks.
  if (pending.length === 0) pending = undefined;

  // Without a resume point the log may start anywhere; after the first event, it must not skip.
  let contiguous = afterSeq !== undefined;
  const feed: EventFeed = new EventFeed({
    refill(limit) {
      const page = pending ?? sessions.eventsAfter(sessionId, cursor, limit);
      pending = undefined;
      if (page.length === 0) {
        if (!running) feed.end();
        return;
      }
      if (contiguous && firstSeqOf(page[0]!) !== cursor + 1) {
        feed.end();
        return;
      }
      contiguous = true;
      for (const event of page) {
        // Not running: what was logged when following began, not a leg that started since.
        if (!running && event.seq > lastSeq) return feed.end();
        feed.push(event);
        cursor = event.seq;
        if (running ? event.seq > lastSeq && ends(event) : cursor >= lastSeq) return feed.end();
      }
    },
  });
  if (running) feed.onClose(sessions.subscribe(sessionId, () => feed.notify()));
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
