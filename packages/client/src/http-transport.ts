import { createSseFeed, DEFAULT_MAX_EVENT_SIZE, protocolBlockHandler, STREAM, type AgentStreamEvent, type AgentUIState } from '@lousho/protocol';
import { AgentClientError } from './errors.js';
import type { ClientTransport, EventReader, HttpSource } from './types.js';

// Messages are one line; docs/protocol.md ("Client error codes") says what to do about each code.

const ignore = (): void => {};

/** The response's JSON body, or undefined when it has none. */
const jsonOf = (response: Response): Promise<any> => response.json().catch(ignore);

/** The client's transport for `createAgentHandler()`: JSON routes, SSE streams, `Last-Event-ID` resume. */
export function createHttpTransport(source: HttpSource): ClientTransport {
  const base = `${source.url.replace(/\/+$/, '')}/sessions/`;
  const urlOf = (path: string[]): string => base + path.map(encodeURIComponent).join('/');

  /**
   * A request to `sessions/<path>`: a POST of the JSON `body` when there is one, else a GET; an
   * event stream when `sse`. A non-2xx answer throws the server's `{ error: { code, message } }` (`LOUSHO_BAD_RESPONSE` without one).
   */
  const request = async (path: string[], signal?: AbortSignal, body?: object, sse?: boolean, lastEventId?: string): Promise<Response> => {
    const headers = new Headers(typeof source.headers === 'function' ? await source.headers() : source.headers);
    if (sse) headers.set('accept', 'text/event-stream');
    if (lastEventId) headers.set('last-event-id', lastEventId);
    if (body) headers.set('content-type', 'application/json');
    // Looked up per call: a global fetch may be installed (or mocked) after the client was made.
    const response = await (source.fetch ?? fetch)(urlOf(path), { method: body ? 'POST' : 'GET', headers, body: JSON.stringify(body), signal });
    if (response.ok) return response;
    const { status } = response;
    const error = (await jsonOf(response))?.error;
    const own = typeof error?.code === 'string' && typeof error.message === 'string';
    throw new AgentClientError(own ? error.code : 'LOUSHO_BAD_RESPONSE', own ? error.message : `HTTP ${status}`, { status });
  };

  /**
   * An event stream: each chunk's events are applied as they are decoded, without a promise per
   * event. Aborting `signal` cancels the body and ends the reading.
   */
  const stream = async (path: string[], signal: AbortSignal, body?: object, lastEventId?: string): Promise<EventReader> => {
    const response = await request(path, signal, body, true, lastEventId);
    return async (onEvent, merge) => {
      const content = response.body;
      if (!content || !/^\s*text\/event-stream/i.test(response.headers.get('content-type')!)) {
        await content?.cancel().catch(ignore);
        throw new AgentClientError('LOUSHO_STREAM_NOT_SSE', 'Not an event stream.');
      }
      const reader = content.getReader();
      const cancel = (): Promise<void> => reader.cancel().catch(ignore);
      // One stream per signal at a time (a resumed leg reads its streams one after the other).
      signal.onabort = cancel;
      // The SSE lines and the protocol check, without the decoder's push/end wrapper (a failure
      // ends the reading anyway), `retry` or the last event ID. The text decoder drops the
      // byte-order mark (one, at the start, as the standard says). Nothing is flushed at the end:
      // text after the last blank line is an unfinished event, which the standard drops.
      // With `merge`, consecutive deltas of one part in one read are applied as one merged delta
      // (`fromSeq`..`seq`, the form the server sends a reader that is behind, see docs/protocol.md).
      // A delta's JSON is `head` (up to its text: type, part, anything said with it) and the text's
      // JSON body; deltas merge when their heads are the same string and their ids follow on. (Text
      // and reasoning deltas in a row belong to one part: only `step.start` begins another.) The
      // first delta after any other event is parsed whole (with the ones merged into it); the
      // deltas after it with the same head, in this read or later ones, are that event again with
      // a new text and seq: no `JSON.parse` of an object, which was most of the client's time per
      // delta on a connection that brings one delta per read. Nothing else can change what the
      // stream said in between (a run or step said once), since any other event ends the run of
      // them. A bad delta among them fails the stream as a bad event does.
      let head = '';
      let body = '';
      let from: string;
      let to: string;
      /** The last event parsed whole, and its head when it was a delta ('' otherwise: `head` is reset before any other event is handled). */
      let last: AgentStreamEvent;
      let lastHead = '';
      const handle = protocolBlockHandler((event) => {
        lastHead = head;
        onEvent((last = event));
      }, {});
      const flush = (): void => {
        // (A delta parsed whole has `fromSeq`, even alone, so the copies only replace fields: a
        // key added after a spread makes V8's copy many times slower.)
        if (head) {
          if (head === lastHead) onEvent({ ...last, delta: JSON.parse(`"${body}"`), seq: +to, fromSeq: +from } as AgentStreamEvent);
          else handle(`${head}${body}","fromSeq":${from}}`, undefined, to);
        }
        head = '';
      };
      const feed = createSseFeed((data, name, id) => {
        // A delta's text ends its JSON (`…"delta":"<body>"}`, in the order the server writes): its
        // head is what comes before the text's body, and the body is a whole, valid JSON string
        // body (no quote that ends it, no control character, only JSON's one-letter escapes: a text
        // with a `\u` escape is parsed on its own), so bodies join into one JSON string and parse alone.
        // eslint-disable-next-line no-control-regex -- a JSON string holds no raw control character
        const delta = merge && !name && id && /^(.*?"delta":")((?:[^"\\\0-\x1f]|\\["\\/bfnrt])*)"}$/.exec(data!);
        if (delta) {
          if (delta[1] === head && +id === +to + 1) body += delta[2];
          else {
            flush();
            [, head, body] = delta as unknown as [string, string, string];
            from = id;
          }
          to = id;
        } else {
          flush();
          handle(data, name, id);
        }
      }, DEFAULT_MAX_EVENT_SIZE);
      const text = new TextDecoder();
      try {
        for (let chunk; !(chunk = await reader.read()).done; flush()) feed(text.decode(chunk.value, STREAM));
      } finally {
        // (After a bad event, the good ones before it are applied first.) Nothing to cancel for a
        // stream that ended; a failed read or a bad event leaves it to be cancelled.
        flush();
        cancel();
      }
    };
  };

  return {
    async load(sessionId, signal) {
      const body = await request([sessionId], signal).then(jsonOf, (error: AgentClientError) => {
        if (error.status !== 404) throw error;
      });
      const state = body?.state as AgentUIState | undefined;
      if (body && !Array.isArray(state?.messages)) throw new AgentClientError('LOUSHO_BAD_RESPONSE', 'Unreadable session.');
      return body && { state: state!, running: body.status === 'running' };
    },
    // (JSON leaves out what is undefined: no `metadata` without one, no `note` without one.)
    send: (sessionId, input, metadata, signal) => stream([sessionId, 'messages'], signal, { input, metadata }),
    // The decision without its `kind`: `{ approved, note? }` or `{ answer }`.
    decide: (sessionId, approvalId, { kind: _, ...body }, signal) => stream([sessionId, 'approvals', approvalId], signal, body),
    follow: (sessionId, afterSeq, signal) => stream([sessionId, 'events'], signal, undefined, String(afterSeq)),
    resume: (sessionId, signal) => stream([sessionId, 'resume'], signal, {}),
    queue: (sessionId, change) => request([sessionId, 'queue'], undefined, change),
    stop: async (sessionId) => (await jsonOf(await request([sessionId, 'stop'], undefined, {})))?.stopped === true,
    upload: (...args) => import('./http-upload.js').then((chunk) => chunk.upload(source, urlOf, ...args)),
  };
}
