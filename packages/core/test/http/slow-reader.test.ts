import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgent, type AgentStreamEvent, type GenerateOptions, type LLMProvider, type StreamChunk } from '../../src/index.js';
import { EventFeed } from '@lousho/protocol';
import { approximateEventSize } from '../../src/http/event-size.js';
import { createAgentHandler, type AgentHandlerOptions, type HandlerAgent } from '../../src/http/index.js';
import { createNodeListener } from '../../../node/src/node/index.js';
import { coalesceDeltas } from '../../src/http/coalesce.js';
import { SSE_CHUNK_BYTES } from '../../src/http/sse-response.js';
import { createEventStreamDecoder } from '@lousho/protocol';
import { MAX_MERGED_DELTA_CHARS } from '@lousho/store-kit';
import { arbEvents, arbRunEvents } from '../../../protocol/test/protocol/arbitraries.js';
import { coveredSeqs, gate, json, plain, readSse, reduceAll, type TestServer } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * The handler called directly, without a server: its body's reader is the only reader, so a test
 * sees exactly what the handler enqueues and when (no socket buffers in between).
 */
function direct(agent: HandlerAgent, options: AgentHandlerOptions = {}): (path: string, init?: RequestInit) => Promise<Response> {
  const handler = createAgentHandler(agent, options);
  return (path, init) => handler(new Request(`http://agent.test${path}`, init));
}

/** A model that replies with `count` text deltas of `size` characters each, as fast as it is read. */
function bulkProvider(count: number, size: number, onDelta?: (index: number) => Promise<void> | void): LLMProvider {
  return {
    name: 'bulk',
    defaultModel: 'bulk-model',
    async *stream(_request: GenerateOptions): AsyncIterable<StreamChunk> {
      for (let i = 0; i < count; i++) {
        await onDelta?.(i);
        yield { type: 'text-delta', text: String.fromCharCode(97 + (i % 26)).repeat(size) };
      }
      yield { type: 'finish', finishReason: 'stop', usage: { promptTokens: 1, completionTokens: count } };
    },
  };
}

const delta = (seq: number, text: string, step = 1): AgentStreamEvent => ({ type: 'text.delta', step, delta: text, seq, runId: 'r1' }) as AgentStreamEvent;

async function sessionState(call: (path: string) => Promise<Response>, id: string): Promise<unknown> {
  return ((await (await call(`/sessions/${id}`)).json()) as { state: unknown }).state;
}

describe('EventFeed: a bounded buffer', () => {
  it('hands out at most maxBytes at a time (at least one event), in order', async () => {
    const feed = new EventFeed();
    const events = Array.from({ length: 100 }, (_, i) => delta(i + 1, 'x'.repeat(100)));
    for (const event of events) feed.push(event);
    feed.end();
    const limit = 5 * approximateEventSize(events[0]!);
    const taken: AgentStreamEvent[] = [];
    for (;;) {
      const batch = await feed.take(undefined, { maxBytes: limit, sizeOf: approximateEventSize });
      if (batch === null) break;
      expect(batch.length).toBe(Math.min(5, 100 - taken.length));
      taken.push(...batch);
    }
    expect(taken).toEqual(events);
    // An event larger than the limit still goes, alone.
    const big = new EventFeed();
    big.push(delta(1, 'y'.repeat(10_000)));
    big.push(delta(2, 'z'));
    expect((await big.take(undefined, { maxBytes: 100, sizeOf: approximateEventSize }))!.map((e) => e.seq)).toEqual([1]);
  });

  it("counts a run.done by what the stream sends: a long reply's end does not overflow a reader one event behind", () => {
    const feed = new EventFeed({ maxBufferedBytes: 10_000, sizeOf: approximateEventSize });
    feed.push(delta(1, 'a'));
    // In the process that ran the leg, run.done carries the whole reply, which is never sent.
    feed.push({ type: 'run.done', finishReason: 'stop', usage: {}, steps: 1, text: 'x'.repeat(50_000), seq: 2, runId: 'r', sessionId: 's' } as unknown as AgentStreamEvent);
    expect(feed.overflowed).toBe(false);
    expect(approximateEventSize({ type: 'run.done', finishReason: 'stop', steps: 1, text: 'x'.repeat(50_000), seq: 2 } as unknown as AgentStreamEvent)).toBeLessThan(200);
  });

  it('with settle, takes the burst that came meanwhile in the same batch, and stops gathering at a batch worth', async () => {
    const limit = { maxBytes: 10 * approximateEventSize(delta(1, 'x'.repeat(100))), sizeOf: approximateEventSize };
    const feed = new EventFeed({ maxBufferedBytes: 1_000_000, sizeOf: approximateEventSize });
    let release!: () => void;
    feed.push(delta(1, 'x'.repeat(100)));
    const taking = feed.take(undefined, limit, (settled) => (release = settled));
    await Promise.resolve();
    for (let seq = 2; seq <= 4; seq++) feed.push(delta(seq, 'x'.repeat(100)));
    release();
    expect((await taking)!.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    // A burst bigger than a batch: the wait ends when a batch's worth waits, before settle does.
    feed.push(delta(5, 'x'.repeat(100)));
    const never = (): void => {};
    const next = feed.take(undefined, limit, never);
    for (let seq = 6; seq <= 30; seq++) feed.push(delta(seq, 'x'.repeat(100)));
    expect((await next)!.map((e) => e.seq)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    // A feed that ends or closes meanwhile ends the wait too.
    const last = feed.take(undefined, limit, never);
    feed.end();
    expect((await last)!.length).toBe(10);
    const closing = new EventFeed({ maxBufferedBytes: 1_000_000, sizeOf: approximateEventSize });
    closing.push(delta(1, 'x'));
    const dropped = closing.take(undefined, limit, never);
    closing.close();
    expect(await dropped).toBeNull();
  });

  it('closes itself (overflowed) when what waits passes maxBufferedBytes, dropping it; one big event alone is kept', async () => {
    const feed = new EventFeed({ maxBufferedBytes: 10_000, sizeOf: approximateEventSize });
    const closed = vi.fn();
    feed.onClose(closed);
    feed.push(delta(1, 'a'.repeat(50_000)));
    expect(feed.closed).toBe(false);
    expect((await feed.take())!.map((e) => e.seq)).toEqual([1]);
    expect(feed.bufferedBytes).toBe(0);
    let seq = 1;
    while (!feed.closed) feed.push(delta(++seq, 'b'.repeat(1000)));
    expect(seq).toBeLessThan(14);
    expect(feed.overflowed).toBe(true);
    expect(feed.bufferedBytes).toBe(0);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(await feed.take()).toBeNull();
    // A reader that keeps taking never overflows, however much passes through.
    const steady = new EventFeed({ maxBufferedBytes: 10_000, sizeOf: approximateEventSize });
    for (let i = 1; i <= 1000; i++) {
      steady.push(delta(i, 'c'.repeat(1000)));
      expect(await steady.take()).toHaveLength(1);
    }
    expect(steady.overflowed).toBe(false);
  });
});

describe('coalesceDeltas: what a reader that is behind gets', () => {
  it('property: any batching of a run, merged per batch, reduces to the same state and never skips a seq', () => {
    fc.assert(
      fc.property(fc.oneof(arbRunEvents, arbEvents).filter((events) => events.length > 0), fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 20 }), (events, sizes) => {
        const sent: AgentStreamEvent[] = [];
        for (let i = 0, k = 0; i < events.length; k++) {
          const size = sizes[k % sizes.length]!;
          sent.push(...coalesceDeltas(events.slice(i, i + size)));
          i += size;
        }
        expect(plain(reduceAll(sent))).toEqual(plain(reduceAll(events)));
        // What the client's gap check sees: each event starts right after the previous one.
        expect(coveredSeqs(sent)).toEqual(events.map((e) => e.seq));
        expect(sent.length).toBeLessThanOrEqual(events.length);
      }),
      { numRuns: 300 },
    );
  });

  it('merges only consecutive deltas of one part', () => {
    const batch = [delta(1, 'a'), delta(2, 'b'), delta(3, 'c', 2), delta(5, 'd', 2), delta(6, 'e', 2)];
    expect(coalesceDeltas(batch)).toEqual([
      { ...batch[1], delta: 'ab', fromSeq: 1 },
      batch[2],
      { ...batch[4], delta: 'de', fromSeq: 5 },
    ]);
    const single = [delta(1, 'a')];
    expect(coalesceDeltas(single)).toBe(single);
  });
});

describe('createAgentHandler: a slow reader', () => {
  it('a reader that keeps up gets every delta on its own, as soon as it is produced (coalescing never delays)', async () => {
    const received = gate<void>();
    let produced = 0;
    let next = gate<void>();
    const agent = createAgent({
      provider: bulkProvider(20, 3, async (i) => {
        // Each delta after the first waits until the reader has the one before it: a writer that
        // held deltas back to merge them would never get the next one.
        if (i > 0) await next.promise;
        next = gate<void>();
        produced = i + 1;
      }),
    });
    const call = direct(agent);
    const response = await call('/sessions/s1/messages', json({ input: 'go' }));
    const events: AgentStreamEvent[] = [];
    const decoder = createEventStreamDecoder((event) => {
      events.push(event);
      if (event.type === 'text.delta') {
        // It arrived while the model has produced nothing after it.
        expect(produced).toBe(events.filter((e) => e.type === 'text.delta').length);
        next.open();
      }
      if (event.type === 'run.done') received.open();
    });
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      decoder.push(value);
    }
    await received.promise;
    const deltas = events.filter((e) => e.type === 'text.delta');
    expect(deltas).toHaveLength(20);
    for (const d of deltas) expect(d).not.toHaveProperty('fromSeq');
  });

  it('a reader that is behind gets the deltas that waited merged, and the same state', async () => {
    const agent = createAgent({ provider: bulkProvider(3000, 4) });
    const call = direct(agent);
    const response = await call('/sessions/s1/messages', json({ input: 'go' }));
    // Nobody reads until the run is over.
    await vi.waitFor(() => expect(agent.sessions.get('s1')?.status).toBe('idle'));
    const { events } = await readSse(response);
    const deltas = events.filter((e) => e.type === 'text.delta');
    expect(coveredSeqs(deltas)).toHaveLength(3000);
    expect(deltas.length).toBeLessThan(3000);
    expect(deltas.some((e) => 'fromSeq' in e)).toBe(true);
    expect(plain(reduceAll(events))).toEqual(await sessionState(call, 's1'));
  });

  it('cuts a stream whose reader falls more than maxBufferedBytes behind; resuming from its last event ends in the same state', async () => {
    const onError = vi.fn();
    const agent = createAgent({ provider: bulkProvider(1000, 1000) });
    const call = direct(agent, { maxBufferedBytes: 64 * 1024, onError });
    const response = await call('/sessions/s1/messages', json({ input: 'go' }));
    const reader = response.body!.getReader();
    const events: AgentStreamEvent[] = [];
    const decoder = createEventStreamDecoder((event) => events.push(event));
    while (events.length === 0) decoder.push((await reader.read()).value!);
    // The reader stops; the run goes on to its end without it.
    await vi.waitFor(() => expect(agent.sessions.get('s1')?.status).toBe('idle'));
    let failure: unknown;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        decoder.push(value);
      }
    } catch (error) {
      failure = error;
    }
    // The connection was cut (not ended): the client knows to resume.
    expect(failure).toBeDefined();
    expect(events.at(-1)?.type).not.toBe('run.done');
    const lastSeen = events.at(-1)!.seq;
    expect(failure).toMatchObject({ code: 'LOUSHO_SLOW_READER' });
    const rest = await readSse(await call('/sessions/s1/events', { headers: { 'last-event-id': String(lastSeen) } }));
    expect(coveredSeqs([...events, ...rest.events])).toEqual(coveredSeqs((await readSse(await call('/sessions/s1/events'))).events));
    expect(plain(reduceAll([...events, ...rest.events]))).toEqual(await sessionState(call, 's1'));
    expect(onError).not.toHaveBeenCalled();
  });

  it('a follower that does not read costs one page of the log, however long the run', async () => {
    const release = gate<void>();
    const agent = createAgent({
      provider: bulkProvider(20_000, 10, async (i) => {
        if (i === 19_999) await release.promise;
      }),
    });
    const call = direct(agent);
    const turn = await call('/sessions/s1/messages', json({ input: 'go' }));
    await vi.waitFor(() => expect(agent.sessions.get('s1')!.lastSeq).toBeGreaterThan(19_000));
    const read = vi.spyOn(agent.sessions, 'eventsAfter');
    const follower = await call('/sessions/s1/events?after=0');
    const reader = follower.body!.getReader();
    await reader.read();
    release.open();
    await vi.waitFor(() => expect(agent.sessions.get('s1')?.status).toBe('idle'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const handedOut = read.mock.results.reduce((sum, result) => sum + (result.value as unknown[]).length, 0);
    // About what fills the stream's buffer (a few chunks of ~200 small events), not the 20,000 of the run.
    expect(handedOut).toBeLessThan(1200);
    read.mockRestore();
    await reader.cancel();
    // The turn's own stream was not read either: it was cut once past maxBufferedBytes.
    await expect(turn.body!.getReader().read()).rejects.toMatchObject({ code: 'LOUSHO_SLOW_READER' });
  });

  it('replays a long finished reply in pieces of about SSE_CHUNK_BYTES, each merged delta within MAX_MERGED_DELTA_CHARS', async () => {
    const agent = createAgent({ provider: bulkProvider(1000, 1000) });
    const call = direct(agent);
    await readSse(await call('/sessions/s1/messages', json({ input: 'go' })));
    const response = await call('/sessions/s1/events');
    const reader = response.body!.getReader();
    const events: AgentStreamEvent[] = [];
    const decoder = createEventStreamDecoder((event) => events.push(event));
    const chunks: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value.byteLength);
      decoder.push(value);
    }
    const deltas = events.filter((e) => e.type === 'text.delta');
    for (const event of deltas) expect(event.delta.length).toBeLessThanOrEqual(MAX_MERGED_DELTA_CHARS);
    expect(deltas.length).toBeGreaterThanOrEqual(1_000_000 / MAX_MERGED_DELTA_CHARS);
    // Every chunk is at most the budget plus one event, except the last: the run's end repeats the
    // whole reply's text (until the lean wire format of issue 17).
    for (const size of chunks.slice(0, -1)) expect(size).toBeLessThan(SSE_CHUNK_BYTES + MAX_MERGED_DELTA_CHARS + 1024);
    expect(plain(reduceAll(events))).toEqual(await sessionState(call, 's1'));
  });

  it('refuses a maxBufferedBytes that is not a positive number', () => {
    const agent = createAgent({ provider: bulkProvider(1, 1) });
    for (const bad of [0, -1, Number.NaN, '1' as unknown as number]) {
      expect(() => createAgentHandler(agent, { maxBufferedBytes: bad })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    }
  });
});

describe('toNodeHandler: a slow reader', () => {
  it('closes the connection of a client that stopped reading (without waiting for it to read), reports nothing, and the run finishes', async () => {
    const onError = vi.fn();
    // 20 MB, more than a loopback socket's buffers take in for a client that does not read, at a
    // pace the server keeps up with until the socket is full: so the server is waiting for `drain`
    // when the backlog passes the limit, and must not wait for the client to read again.
    const agent = createAgent({ provider: bulkProvider(1300, 16_000, () => new Promise((resolve) => setImmediate(resolve))) });
    const listener = createNodeListener(agent, { maxBufferedBytes: 128 * 1024, onError });
    const responseClosed = gate<void>();
    const http = createServer((req, res) => {
      res.once('close', () => responseClosed.open());
      listener(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    server = { url: `http://127.0.0.1:${port}`, server: http, close: () => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))) };
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    const body = JSON.stringify({ input: 'go' });
    socket.write(`POST /sessions/s1/messages HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    // Never read: the server gives up on the connection while the client still is not reading.
    socket.pause();
    await vi.waitFor(() => expect(agent.sessions.get('s1')?.status).toBe('idle'), { timeout: 20_000 });
    await responseClosed.promise;
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    let received = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.byteLength));
    socket.resume();
    await ended;
    // Far less than the 20 MB turn got through before the cut.
    expect(received).toBeLessThan(20_000_000);
    expect(onError).not.toHaveBeenCalled();
  }, 30_000);
});
