import { describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../src/client/http-transport.js';
import type { AgentStreamEvent } from '../../src/events/types.js';
import { encodeSseEvent, encodeSseVersion, sseHeaders } from '../../src/protocol/sse.js';

const encoder = new TextEncoder();
const delta = (seq: number): AgentStreamEvent => ({ type: 'text.delta', seq, runId: 'run_1', step: 1, delta: `t${seq}` });

/** A transport whose fetch answers every request with `body` (cut into `chunks`), recording the requests. */
function transportFor(chunks: Uint8Array[]) {
  const requests: { url: string; method: string; headers: Headers; body: string | undefined }[] = [];
  const transport = createHttpTransport({
    url: 'http://agent.invalid/api/',
    headers: async () => ({ 'x-token': 't' }),
    fetch: async (input, init) => {
      requests.push({ url: String(input), method: init!.method!, headers: new Headers(init!.headers), body: init!.body as string | undefined });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      });
      return new Response(body, { headers: sseHeaders });
    },
  });
  return { transport, requests };
}

async function read(chunks: Uint8Array[]): Promise<{ events: AgentStreamEvent[]; error: unknown }> {
  const { transport } = transportFor(chunks);
  const events: AgentStreamEvent[] = [];
  const reader = await transport.follow('s1', 0, new AbortController().signal);
  try {
    await reader((event) => events.push(event));
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

describe('createHttpTransport', () => {
  it('drops one byte-order mark at the start of a stream, even cut across chunks', async () => {
    const bytes = encoder.encode(`\ufeff${encodeSseVersion()}${encodeSseEvent(delta(1))}`);
    expect(await read([bytes])).toEqual({ events: [delta(1)], error: undefined });
    expect(await read([bytes.slice(0, 1), bytes.slice(1, 2), bytes.slice(2)])).toEqual({ events: [delta(1)], error: undefined });
  });

  it('drops only one: a second byte-order mark starts an unknown field, so the version frame loses its name', async () => {
    const { events, error } = await read([encoder.encode(`\ufeff\ufeff${encodeSseVersion()}${encodeSseEvent(delta(1))}`)]);
    expect(events).toEqual([]);
    // The version frame's data came as an (unnamed, id-less) event.
    expect(error).toMatchObject({ name: 'EventStreamError', code: 'LOUSHO_STREAM_MISSING_VERSION', message: 'Event (no id) came before the version frame.' });
  });

  it('drops an event the stream ended in the middle of, and joins a CRLF cut between chunks', async () => {
    const text = `${encodeSseVersion()}${encodeSseEvent(delta(1))}${encodeSseEvent(delta(2))}`.replace(/\n/g, '\r\n');
    const cut = text.lastIndexOf('\r\n\r\n') - 1;
    expect((await read([encoder.encode(text.slice(0, cut))])).events).toEqual([delta(1)]);
    const lf = text.indexOf('\n', text.indexOf('data'));
    expect((await read([encoder.encode(text.slice(0, lf)), encoder.encode(text.slice(lf))])).events).toEqual([delta(1), delta(2)]);
  });

  it('sends JSON bodies, Accept and Last-Event-ID, with the caller headers', async () => {
    const { transport, requests } = transportFor([]);
    const signal = new AbortController().signal;
    await transport.send('a b', 'hi', undefined, signal);
    await transport.follow('a b', 0, signal);
    await transport.decide('a b', 'ap/1', { kind: 'question', answer: 'yes' }, signal);
    await transport.stop('a b');
    expect(requests.map(({ url, method, body }) => [method, url, body])).toEqual([
      ['POST', 'http://agent.invalid/api/sessions/a%20b/messages', '{"input":"hi"}'],
      ['GET', 'http://agent.invalid/api/sessions/a%20b/events', undefined],
      ['POST', 'http://agent.invalid/api/sessions/a%20b/approvals/ap%2F1', '{"answer":"yes"}'],
      // (An empty JSON body: the transport posts exactly when it has a body.)
      ['POST', 'http://agent.invalid/api/sessions/a%20b/stop', '{}'],
    ]);
    expect(requests.map(({ headers }) => [headers.get('accept'), headers.get('last-event-id'), headers.get('content-type'), headers.get('x-token')])).toEqual([
      ['text/event-stream', null, 'application/json', 't'],
      ['text/event-stream', '0', null, 't'],
      ['text/event-stream', null, 'application/json', 't'],
      [null, null, 'application/json', 't'],
    ]);
  });
});
