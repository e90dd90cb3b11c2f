import { followSession, sessionUIState, startRun, type AgentStreamEvent, type ClientAgent, type EventFeed } from '@lousho/protocol';
import type { ClientTransport, EventReader } from './types.js';

/** A reader of `feed` that stops when `signal` aborts; the run that fills the feed is not touched. */
function readerOf(feed: EventFeed, signal: AbortSignal): EventReader {
  const close = (): void => feed.close();
  if (signal.aborted) close();
  else {
    signal.addEventListener('abort', close, { once: true });
    feed.onClose(() => signal.removeEventListener('abort', close));
  }
  return async (onEvent) => {
    try {
      for (;;) {
        const batch = await feed.take();
        if (batch === null) return;
        for (const event of batch) onEvent(event);
      }
    } finally {
      feed.close();
    }
  };
}

/** A refusal (busy in another process, ...) rejects here, before the stream is read, as over HTTP. */
async function runReader(run: AsyncIterable<AgentStreamEvent>, signal: AbortSignal): Promise<EventReader> {
  return readerOf(await startRun(run), signal);
}

/**
 * The client's transport for an agent in the same process: the agent's own streams and session
 * log, with the same events (and sequence numbers) the HTTP handler sends.
 */
export function createInProcessTransport(agent: ClientAgent): ClientTransport {
  return {
    async load(sessionId) {
      // From the agent's store first: a session from before a restart, or changed by another process.
      await agent.sessions.load(sessionId);
      // The reducer with sub-agent nesting, from the client's own on-demand chunk (client-core.ts).
      const view = sessionUIState((await import('./full-reducer.js')).reduceAgentEvents, agent.sessions, sessionId);
      return view && { state: view.state, running: view.session.status === 'running' };
    },
    send(sessionId, input, metadata, signal) {
      return runReader(agent.stream(input, { sessionId, ...(metadata ? { metadata } : {}) }), signal);
    },
    async decide(_sessionId, approvalId, decision, signal) {
      const run =
        decision.kind === 'question'
          ? await agent.approvals.answerStream({ id: approvalId, answer: decision.answer })
          : await agent.approvals.resolveStream({ id: approvalId, approved: decision.approved, ...(decision.note !== undefined ? { note: decision.note } : {}) });
      return runReader(run, signal);
    },
    async resume(sessionId, signal) {
      // Never forced, as over HTTP: only a run whose lease ran out is resumed.
      return runReader(await agent.resumeStream(sessionId, { force: false }), signal);
    },
    async follow(sessionId, afterSeq, signal) {
      return readerOf(followSession(agent.sessions, sessionId, afterSeq), signal);
    },
    async stop(sessionId) {
      // Wherever the turn runs: here, or (with a store that signals, e.g. PostgreSQL) in another process.
      return agent.sessions.requestStop(sessionId);
    },
  };
}
