import type { AgentStreamEvent } from '../events/types.js';
import { createEventStreamDecoder } from '../protocol/index.js';
import type { AgentUIState } from '../ui-state/index.js';
import { AgentClientError } from './errors.js';
import type { ClientTransport, EventReader, HttpSource } from './types.js';

type RequestInit = { method: string; body?: unknown; headers?: Record<string, string> };

const CHECK_HANDLER = 'Check that the URL points at the agent handler (createAgentHandler) and that client and server versions match.';

/** The error a non-2xx response stands for: the server's `{ error: { code, message } }` when it sent one. */
async function responseError(response: Response): Promise<AgentClientError> {
  const error = ((await response.json().catch(() => undefined)) as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string'
    ? new AgentClientError(error.code, error.message, { status: response.status })
    : new AgentClientError('LOUSHO_BAD_RESPONSE', `The agent server answered HTTP ${response.status} without an error description.`, { hint: CHECK_HANDLER, status: response.status });
}

/**
 * Reads an SSE body with the protocol's push decoder: each chunk's events are applied as they are
 * decoded, without a promise per event. Aborting `signal` cancels the body and ends the reading.
 */
function sseReader(response: Response, signal: AbortSignal): EventReader {
  return async (onEvent: (event: AgentStreamEvent) => void) => {
    if (!/^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '') || !response.body) {
      await response.body?.cancel().catch(() => {});
      throw new AgentClientError('LOUSHO_STREAM_NOT_SSE', 'The agent server did not answer with an event stream.', { hint: CHECK_HANDLER });
    }
    const reader = response.body.getReader();
    const cancel = (): void => void reader.cancel().catch(() => {});
    signal.addEventListener('abort', cancel, { once: true });
    const decoder = createEventStreamDecoder(onEvent);
    let finished = false;
    try {
      while (!signal.aborted) {
        const { done, value } = await reader.read();
        if (done) {
          finished = true;
          decoder.end();
          return;
        }
        decoder.push(value);
      }
    } finally {
      signal.removeEventListener('abort', cancel);
      if (!finished) cancel();
    }
  };
}

/** The client's transport for `createAgentHandler()`: JSON routes, SSE streams, `Last-Event-ID` resume. */
export function createHttpTransport(source: HttpSource): ClientTransport {
  const base = source.url.replace(/\/+$/, '');
  const url = (sessionId: string, ...rest: string[]): string =>
    [`${base}/sessions`, sessionId, ...rest].map((part, i) => (i ? encodeURIComponent(part) : part)).join('/');

  const request = async (target: string, init: RequestInit, signal?: AbortSignal): Promise<Response> => {
    const headers = new Headers(typeof source.headers === 'function' ? await source.headers() : source.headers);
    for (const name in init.headers) headers.set(name, init.headers[name]!);
    if (init.body !== undefined) headers.set('content-type', 'application/json');
    // Looked up per call: a global fetch may be installed (or mocked) after the client was made.
    const response = await (source.fetch ?? fetch)(target, {
      method: init.method,
      headers,
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
      ...(signal && { signal }),
    });
    if (!response.ok) throw await responseError(response);
    return response;
  };

  const stream = async (target: string, init: RequestInit, signal: AbortSignal): Promise<EventReader> =>
    sseReader(await request(target, { ...init, headers: { accept: 'text/event-stream', ...init.headers } }, signal), signal);

  return {
    async load(sessionId, signal) {
      let response: Response;
      try {
        response = await request(url(sessionId), { method: 'GET' }, signal);
      } catch (error) {
        if ((error as AgentClientError).status === 404) return undefined;
        throw error;
      }
      const body = (await response.json().catch(() => undefined)) as { status?: unknown; state?: AgentUIState } | undefined;
      const state = body?.state;
      if (!Array.isArray(state?.messages) || typeof state.lastSeq !== 'number') {
        throw new AgentClientError('LOUSHO_BAD_RESPONSE', 'The agent server sent a session without a readable state.', { hint: CHECK_HANDLER });
      }
      return { state, running: body!.status === 'running' };
    },
    send: (sessionId, input, metadata, signal) => stream(url(sessionId, 'messages'), { method: 'POST', body: metadata ? { input, metadata } : { input } }, signal),
    decide: (sessionId, approvalId, decision, signal) =>
      stream(
        url(sessionId, 'approvals', approvalId),
        { method: 'POST', body: decision.kind === 'question' ? { answer: decision.answer } : { approved: decision.approved, note: decision.note } },
        signal,
      ),
    follow: (sessionId, afterSeq, signal) => stream(url(sessionId, 'events'), { method: 'GET', headers: { 'last-event-id': String(afterSeq) } }, signal),
    async stop(sessionId) {
      const response = await request(url(sessionId, 'stop'), { method: 'POST' });
      return ((await response.json().catch(() => undefined)) as { stopped?: unknown } | undefined)?.stopped === true;
    },
  };
}
