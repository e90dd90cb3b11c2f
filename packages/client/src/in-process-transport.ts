import {
  acceptUpload,
  attachmentOf,
  DEFAULT_FILE_TYPES,
  DEFAULT_MAX_FILE_BYTES,
  followSession,
  sessionUIState,
  startRun,
  type AgentStreamEvent,
  type ClientAgent,
  type EventFeed,
} from '@lousho/protocol';
import { AgentClientError } from './errors.js';
import { rememberPageFile } from './attachment-url.js';
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

/** The agent's queue (messages sent while a turn runs); `LOUSHO_QUEUE_UNSUPPORTED` for an agent without one, as over HTTP. */
function queueOf(agent: ClientAgent): Required<Pick<ClientAgent['sessions'], 'enqueue' | 'unqueue'>> {
  const { sessions } = agent;
  if (!sessions.enqueue || !sessions.unqueue) throw new AgentClientError('LOUSHO_QUEUE_UNSUPPORTED', 'This agent cannot queue messages sent while a turn runs.');
  return { enqueue: sessions.enqueue.bind(sessions), unqueue: sessions.unqueue.bind(sessions) };
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
      const { approvals } = agent;
      const { kind, ...body } = decision;
      const run =
        kind === 'question'
          ? await approvals.answerStream({ id: approvalId, answer: decision.answer })
          : kind === 'client'
            ? // (An agent without browser tools, a flow, has no such method: it cannot be paused on one.)
              await approvals.submitToolResultStream!({ id: approvalId, ...body })
            : await approvals.resolveStream({ id: approvalId, approved: decision.approved, ...(decision.note !== undefined ? { note: decision.note } : {}) });
      return runReader(run, signal);
    },
    async resume(sessionId, signal) {
      // Never forced, as over HTTP: only a run whose lease ran out is resumed.
      return runReader(await agent.resumeStream(sessionId, { force: false }), signal);
    },
    async follow(sessionId, afterSeq, signal) {
      return readerOf(followSession(agent.sessions, sessionId, afterSeq), signal);
    },
    async queue(sessionId, change) {
      const queue = queueOf(agent);
      if ('remove' in change) return queue.unqueue(sessionId, change.remove);
      const { input, mode, metadata } = change;
      return queue.enqueue(sessionId, input, { ...(mode ? { mode } : {}), ...(metadata ? { metadata } : {}) });
    },
    async stop(sessionId) {
      // Wherever the turn runs: here, or (with a store that signals, e.g. PostgreSQL) in another process.
      return agent.sessions.requestStop(sessionId);
    },
    // Checked as the HTTP handler checks an upload with its default limits; the session is created
    // (owned by nobody, as `send` in process creates it) once the file is stored.
    async upload(sessionId, file, name) {
      if (!agent.files) throw new AgentClientError('LOUSHO_FILES_UNSUPPORTED', 'This agent keeps no files: createAgent({ files }).');
      const stored = await acceptUpload(
        agent.files,
        { sessionId, name: name ?? (file as Partial<File>).name ?? '', contentType: file.type, size: file.size, body: bytesOf(file) },
        { maxFileBytes: DEFAULT_MAX_FILE_BYTES, fileTypes: DEFAULT_FILE_TYPES },
      );
      if (!(await agent.sessions.load(sessionId))) await agent.sessions.create(sessionId);
      // Shown from the page's own copy: the agent's store has no URL.
      rememberPageFile(stored.id, file);
      return attachmentOf(stored);
    },
  };
}

/** A file's bytes as a stream (read whole where a Blob has no `stream()`, as in jsdom). */
function bytesOf(file: Blob): ReadableStream<Uint8Array> {
  if (typeof file.stream === 'function') return file.stream();
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(new Uint8Array(await file.arrayBuffer()));
      controller.close();
    },
  });
}
