import type { AgentStreamEvent } from '../events/types.js';
import { createEventStreamDecoder } from '../protocol/decoder.js';
import type { AgentUIState } from '../ui-state/index.js';
import { AgentClientError } from './errors.js';
import type { ClientTransport, EventReader, HttpSource } from './types.js';

const CHECK_HANDLER = 'Check that the URL points at the agent handler (createAgentHandler) and that client and server versions match.';

/** The response's JSON body, or undefined when it has none. */
const jsonOf = (response: Response): Promise<any> => response.json().catch(() => undefined);

const badResponse = (message: string, status?: number): AgentClientError => new AgentClientError('LOUSHO_BAD_RESPONSE', message, { hint: CHECK_HANDLER, status });

/** The error a non-2xx response stands for: the server's `{ error: { code, message } }` when it sent one. */
async function responseError(response: Response): Promise<AgentClientError> {
  const error = (await jsonOf(response))?.error;
  const status = response.status;
  return typeof error?.code === 'string' && typeof error.message === 'string'
    ? new AgentClientError(error.code, error.message, { status })
    : badResponse(`The agent server answered HTTP ${status} without an error description.`, status);
}

/**
 * Reads an SSE body with the protocol's push decoder: each chunk's events are applied as they are
 * decoded, without a promise per event. Aborting `signal` cancels the body and ends the reading.
 */
function sseReader(response: Response, signal: AbortSignal): EventReader {
  return async (onEvent: (event: AgentStreamEvent) => void) => {
    const body = response.body;
    if (!body || !/^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '')) {
      await body?.cancel().catch(() => {});
      throw new AgentClientError('LOUSHO_STREAM_NOT_SSE', 'The agent server did not answer with an event stream.', { hint: CHECK_HANDLER });
    }
    const reader = body.getReader();
    const cancel = (): void => void reader.cancel().catch(() => {});
    signal.addEventListener('abort', cancel, { once: true });
    const decoder = createEventStreamDecoder(onEvent);
    let finished = false;
    try {
      while (!signal.aborted) {
        const { done, value } = await reader.read();
        if (done) {
          finished = true;
          return decoder.end();
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
  const base = `${source.url.replace(/\/+$/, '')}/sessions/`;
  const url = (...parts: string[]): string => base + parts.map(encodeURIComponent).join('/');

  const request = async (target: string, method: string, signal?: AbortSignal, body?: unknown, extraHeaders?: Record<string, string>): Promise<Response> => {
    const headers = new Headers(typeof source.headers === 'function' ? await source.headers() : source.headers);
    for (const name in extraHeaders) headers.set(name, extraHeaders[name]!);
    if (body !== undefined) headers.set('content-type', 'application/json');
    // Looked up per call: a global fetch may be installed (or mocked) after the client was made.
    const response = await (source.fetch ?? fetch)(target, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }), ...(signal && { signal }) });
    if (!response.ok) throw await responseError(response);
    return response;
  };

  const stream = async (target: string, method: string, signal: AbortSignal, body?: unknown, extraHeaders?: Record<string, string>): Promise<EventReader> =>
    sseReader(await request(target, method, signal, body, { accept: 'text/event-stream', ...extraHeaders }), signal);

  return {
    async load(sessionId, signal) {
      let response: Response;
      try {
        response = await request(url(sessionId), 'GET', signal);
      } catch (error) {
        if ((error as AgentClientError).status === 404) return undefined;
        throw error;
      }
      const body = (await jsonOf(response)) as { status?: unknown; state?: AgentUIState } | undefined;
      const state = body?.state;
      if (!Array.isArray(state?.messages) || typeof state.lastSeq !== 'number') throw badResponse('The agent server sent a session without a readable state.');
      return { state, running: body!.status === 'running' };
    },
    send: (sessionId, input, metadata, signal) => stream(url(sessionId, 'messages'), 'POST', signal, metadata ? { input, metadata } : { input }),
    decide: (sessionId, approvalId, decision, signal) =>
      stream(url(sessionId, 'approvals', approvalId), 'POST', signal, decision.kind === 'question' ? { answer: decision.answer } : { approved: decision.approved, note: decision.note }),
    follow: (sessionId, afterSeq, signal) => stream(url(sessionId, 'events'), 'GET', signal, undefined, { 'last-event-id': String(afterSeq) }),
    stop: async (sessionId) => (await jsonOf(await request(url(sessionId, 'stop'), 'POST')))?.stopped === true,
  };
}
