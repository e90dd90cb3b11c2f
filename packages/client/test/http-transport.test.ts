import { describe, expect, it } from 'vitest';
import { createSseEventEncoder, encodeSseEvent, encodeSseVersion, sseHeaders, type AgentStreamEvent } from '@lousho/protocol';
import { createHttpTransport } from '../src/http-transport.js';

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

async function read(chunks: Uint8Array[], merge?: boolean): Promise<{ events: AgentStreamEvent[]; error: unknown }> {
  const { transport } = transportFor(chunks);
  const events: AgentStreamEvent[] = [];
  const reader = await transport.follow('s1', 0, new AbortController().signal);
  try {
    await reader((event) => events.push(event), merge);
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

  describe('with merge (the client asks for it when nobody sees single events)', () => {
    const argDelta = (seq: number, toolCallId: string): AgentStreamEvent => ({ type: 'tool.input.delta', seq, runId: 'run_1', toolCallId, delta: `${toolCallId}${seq}` });
    // 1-3: one text part; 4-5: call a's arguments; 6: call b's; 7, then 9 after a gap; 10-11 in the next read.
    const first = [delta(1), delta(2), delta(3), argDelta(4, 'a'), argDelta(5, 'a'), argDelta(6, 'b'), delta(7), delta(9)];
    const second = [delta(10), delta(11)];
    const frames = (events: AgentStreamEvent[]): string => events.map((event) => encodeSseEvent(event)).join('');
    const chunks = [encoder.encode(encodeSseVersion() + frames(first)), encoder.encode(frames(second))];

    it('applies consecutive deltas of one part read together as one delta (fromSeq..seq), never across a gap, a part or a read', async () => {
      expect(await read(chunks, true)).toEqual({
        events: [
          { ...delta(3), delta: 't1t2t3', fromSeq: 1 },
          { ...argDelta(5, 'a'), delta: 'a4a5', fromSeq: 4 },
          // (A delta parsed whole says its `fromSeq` even alone, so the deltas after it can be copies of it.)
          { ...argDelta(6, 'b'), fromSeq: 6 },
          { ...delta(7), fromSeq: 7 },
          { ...delta(9), fromSeq: 9 },
          // The next read's deltas follow on from 9: built from it, without parsing their JSON objects.
          { ...delta(11), delta: 't10t11', fromSeq: 10 },
        ],
        error: undefined,
      });
      // Without it, every event as it came.
      expect(await read(chunks)).toEqual({ events: [...first, ...second], error: undefined });
    });

    it('applies a merged delta from the server as it came (its fromSeq), and joins the deltas around it only with each other', async () => {
      const merged = { ...delta(4), delta: 't2t3t4', fromSeq: 2 } as AgentStreamEvent;
      const { events } = await read([encoder.encode(encodeSseVersion() + frames([delta(1), merged, delta(5), delta(6)]))], true);
      expect(events).toEqual([{ ...delta(1), fromSeq: 1 }, merged, { ...delta(6), delta: 't5t6', fromSeq: 5 }]);
    });

    it('never joins the deltas of two sub-agents, or of a sub-agent and the lead', async () => {
      const of = (seq: number, name?: string): AgentStreamEvent => ({ ...delta(seq), ...(name && { subagent: { name, depth: 1, toolCallId: `call_${name}` } }) });
      // (Parallel sub-agents interleave; the lead's text is one part, each sub-agent's another.)
      const stream = [of(1), of(2, 'a'), of(3, 'b'), of(4, 'a'), of(5, 'a'), of(6)];
      const encode = createSseEventEncoder();
      const { events } = await read([encoder.encode(encodeSseVersion() + stream.map(encode).join(''))], true);
      // (The lead's deltas match the form that joins, so they say their `fromSeq`; the sub-agents' never join.)
      expect(events).toEqual(stream.map((event) => (event.subagent ? event : { ...event, fromSeq: event.seq })));
    });

    it('builds a delta from the one before it only while nothing else came between: a new run or step is read whole', async () => {
      const stream: AgentStreamEvent[] = [
        { type: 'run.start', seq: 1, runId: 'run_1', model: 'm' } as AgentStreamEvent,
        { type: 'step.start', seq: 2, runId: 'run_1', step: 1 } as AgentStreamEvent,
        { type: 'text.delta', seq: 3, runId: 'run_1', step: 1, delta: 'a' },
        { type: 'text.delta', seq: 4, runId: 'run_1', step: 1, delta: 'b' },
        { type: 'run.start', seq: 5, runId: 'run_2', model: 'm' } as AgentStreamEvent,
        { type: 'step.start', seq: 6, runId: 'run_2', step: 1 } as AgentStreamEvent,
        { type: 'step.start', seq: 7, runId: 'run_2', step: 2 } as AgentStreamEvent,
        { type: 'text.delta', seq: 8, runId: 'run_2', step: 2, delta: 'c' },
        { type: 'text.delta', seq: 9, runId: 'run_2', step: 2, delta: 'd' },
      ];
      // v2 says the run and the step once, so every delta's JSON is the same `{"type":"text.delta","delta":"…"}`; one read per event.
      const encode = createSseEventEncoder();
      const { events } = await read([encodeSseVersion(), ...stream.map(encode)].map((text) => encoder.encode(text)), true);
      expect(events).toEqual(stream.map((event) => (event.type === 'text.delta' ? { ...event, sessionId: undefined, fromSeq: event.seq } : event)));
    });

    it('joins texts that hold quotes, backslashes, escapes and 4-byte characters exactly', async () => {
      const texts = ['say "hi"', '\\', 'a\\', '\n', '\u00e9\t', '😀中', '"', '\u2028'];
      const stream = texts.map((text, i) => ({ ...delta(i + 1), delta: text }));
      const { events } = await read([encoder.encode(encodeSseVersion() + frames(stream))], true);
      expect(events.map((event) => event.type === 'text.delta' && event.delta).join('')).toBe(texts.join(''));
      expect(events.at(-1)).toMatchObject({ seq: texts.length });
    });

    it('applies the deltas before a bad event, then fails with its error', async () => {
      const { events, error } = await read([encoder.encode(`${encodeSseVersion()}${frames([delta(1), delta(2)])}id: 3\ndata: nope\n\n`)], true);
      expect(events).toEqual([{ ...delta(2), delta: 't1t2', fromSeq: 1 }]);
      expect(error).toMatchObject({ code: 'LOUSHO_STREAM_BAD_JSON' });
    });
  });
});
