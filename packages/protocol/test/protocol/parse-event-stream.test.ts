import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/contracts/events.js';
import {
  EventStreamError,
  PROTOCOL_VERSION,
  createEventStreamDecoder,
  encodeSseEvent,
  encodeSseVersion,
  parseEventStream,
  sseHeaders,
} from '../../src/protocol/index.js';
import { collect, fromChunks } from './arbitraries.js';

const encoder = new TextEncoder();
const VERSION = encodeSseVersion();

function delta(seq: number, text = `t${seq}`): AgentStreamEvent {
  return { type: 'text.delta', seq, runId: 'run_1', step: 1, delta: text };
}

function bytesOf(...texts: string[]): Uint8Array[] {
  return texts.map((text) => encoder.encode(text));
}

/** Collects events until the iteration throws; returns both. */
async function collectUntilError(iterable: AsyncIterable<AgentStreamEvent>): Promise<{ events: AgentStreamEvent[]; error: unknown }> {
  const events: AgentStreamEvent[] = [];
  try {
    for await (const event of iterable) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

/** A ReadableStream we can watch: what it was asked (cancel) and when it is locked. */
function controllableStream(initial: string[] = []) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const log: { cancelled: unknown[] } = { cancelled: [] };
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      for (const text of initial) c.enqueue(encoder.encode(text));
    },
    cancel(reason) {
      log.cancelled.push(reason);
    },
  });
  return { stream, log, push: (text: string) => controller.enqueue(encoder.encode(text)), close: () => controller.close() };
}

function sseResponse(body: string, init: ResponseInit = {}): Response {
  return new Response(body, { status: 200, headers: sseHeaders, ...init });
}

describe('parseEventStream: the SSE format', () => {
  it('reads LF, CRLF and CR line endings, including a CR-only stream that ends right after its last blank line', async () => {
    const lf = `${VERSION}${encodeSseEvent(delta(1))}${encodeSseEvent(delta(2))}`;
    for (const ending of ['\n', '\r\n', '\r']) {
      const text = lf.replace(/\n/g, ending);
      expect(await collect(parseEventStream(fromChunks(bytesOf(text))))).toEqual([delta(1), delta(2)]);
    }
  });

  it('ignores comments, keep-alives, retry lines, unknown fields and unknown named frames', async () => {
    const retries: number[] = [];
    const text = [
      ': hello\n\n',
      VERSION,
      ':\n',
      ': keep-alive\n\n',
      'retry: 2500\n\n',
      'retry: soon\n\n',
      'foo: bar\n',
      'event: lousho.later\ndata: {"not":"an agent event"}\n\n',
      encodeSseEvent(delta(1)),
    ].join('');
    const events = await collect(parseEventStream(fromChunks(bytesOf(text)), { onRetry: (ms) => retries.push(ms) }));
    expect(events).toEqual([delta(1)]);
    expect(retries).toEqual([2500]);
  });

  it('joins multi-line data with newlines, as the standard says', async () => {
    const text = `${VERSION}id: 7\ndata: {"type":"text.delta",\ndata:"seq":7,"runId":"r","step":1,\ndata: "delta":"x"}\n\n`;
    expect(await collect(parseEventStream(fromChunks(bytesOf(text))))).toEqual([{ type: 'text.delta', seq: 7, runId: 'r', step: 1, delta: 'x' }]);
  });

  it('strips a byte-order mark at the very start', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(VERSION + encodeSseEvent(delta(1)))]);
    expect(await collect(parseEventStream(fromChunks([bytes.subarray(0, 2), bytes.subarray(2)])))).toEqual([delta(1)]);
  });

  it('drops an event the stream ended in the middle of, without an error', async () => {
    const text = `${VERSION}${encodeSseEvent(delta(1))}id: 2\ndata: {"type":"text.delta","seq":2`;
    expect(await collect(parseEventStream(fromChunks(bytesOf(text))))).toEqual([delta(1)]);
    // Complete data line but no blank line after it: still not dispatched.
    const complete = `${VERSION}${encodeSseEvent(delta(1))}data: ${JSON.stringify(delta(2))}\n`;
    expect(await collect(parseEventStream(fromChunks(bytesOf(complete))))).toEqual([delta(1)]);
  });

  it('exposes the last event id for Last-Event-ID', async () => {
    const stream = parseEventStream(fromChunks(bytesOf(VERSION, encodeSseEvent(delta(41)), encodeSseEvent(delta(42)))));
    expect(stream.lastEventId).toBe('');
    await collect(stream);
    expect(stream.lastEventId).toBe('42');
  });

  it('serves calls made without awaiting in order, one event each', async () => {
    const stream = parseEventStream(fromChunks(bytesOf(VERSION + encodeSseEvent(delta(1)), encodeSseEvent(delta(2)) + encodeSseEvent(delta(3)))));
    const results = await Promise.all([stream.next(), stream.next(), stream.next(), stream.next(), stream.next()]);
    expect(results).toEqual([
      { value: delta(1), done: false },
      { value: delta(2), done: false },
      { value: delta(3), done: false },
      { value: undefined, done: true },
      { value: undefined, done: true },
    ]);
  });
});

describe('parseEventStream: malformed streams', () => {
  it('throws LOUSHO_STREAM_BAD_JSON naming the event id, after yielding every good event before it', async () => {
    const text = `${VERSION}${encodeSseEvent(delta(1))}${encodeSseEvent(delta(2))}id: 3\ndata: {"type": oops}\n\n${encodeSseEvent(delta(4))}`;
    const { events, error } = await collectUntilError(parseEventStream(fromChunks(bytesOf(text))));
    expect(events).toEqual([delta(1), delta(2)]);
    expect(error).toBeInstanceOf(EventStreamError);
    expect(error).toMatchObject({ name: 'EventStreamError', code: 'LOUSHO_STREAM_BAD_JSON', eventId: '3' });
    expect((error as Error).message).toContain('Event 3 is not JSON');
  });

  it('does the same when the bad event arrives in a later chunk, and then ends (never hangs)', async () => {
    const stream = parseEventStream(fromChunks(bytesOf(VERSION + encodeSseEvent(delta(1)), 'id: 2\ndata: nope\n\n', encodeSseEvent(delta(3)))));
    await expect(stream.next()).resolves.toEqual({ value: delta(1), done: false });
    await expect(stream.next()).rejects.toMatchObject({ code: 'LOUSHO_STREAM_BAD_JSON', eventId: '2' });
    await expect(stream.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it('throws LOUSHO_STREAM_BAD_EVENT for JSON that is not an object with a string type', async () => {
    for (const data of ['[1,2]', '"text"', 'null', '{"type":5}', '{"seq":1}']) {
      const { error } = await collectUntilError(parseEventStream(fromChunks(bytesOf(`${VERSION}id: 9\ndata: ${data}\n\n`))));
      expect(error).toMatchObject({ code: 'LOUSHO_STREAM_BAD_EVENT', eventId: '9' });
    }
  });

  it('refuses a stream in an unknown protocol version', async () => {
    const text = `${encodeSseVersion('lousho.v99')}${encodeSseEvent(delta(1))}`;
    const { events, error } = await collectUntilError(parseEventStream(fromChunks(bytesOf(text))));
    expect(events).toEqual([]);
    expect(error).toMatchObject({ code: 'LOUSHO_STREAM_UNSUPPORTED_VERSION' });
    expect((error as Error).message).toContain('"lousho.v99"');
    expect((error as Error).message).toContain(PROTOCOL_VERSION);
  });

  it('refuses an unreadable version frame', async () => {
    const { error } = await collectUntilError(parseEventStream(fromChunks(bytesOf('event: protocol\ndata: v1\n\n'))));
    expect(error).toMatchObject({ code: 'LOUSHO_STREAM_UNSUPPORTED_VERSION' });
  });

  it('refuses events sent before any version frame', async () => {
    const { error } = await collectUntilError(parseEventStream(fromChunks(bytesOf(encodeSseEvent(delta(1))))));
    expect(error).toMatchObject({ code: 'LOUSHO_STREAM_MISSING_VERSION', eventId: '1' });
    // One line naming the problem; the fix (send encodeSseVersion() first) is in docs/protocol.md under the code.
    expect((error as EventStreamError).message).toBe('Event 1 came before the version frame.');
  });

  it('stops with LOUSHO_STREAM_EVENT_TOO_LARGE when one event outgrows maxEventSize', async () => {
    const big = encodeSseEvent(delta(2, 'x'.repeat(5000)));
    const { events, error } = await collectUntilError(parseEventStream(fromChunks(bytesOf(VERSION + encodeSseEvent(delta(1)), big.slice(0, 2500), big.slice(2500))), { maxEventSize: 1000 }));
    expect(events).toEqual([delta(1)]);
    expect(error).toMatchObject({ code: 'LOUSHO_STREAM_EVENT_TOO_LARGE' });
  });

  it('lets an error thrown by the source through unchanged', async () => {
    const boom = new Error('network down');
    async function* failing() {
      yield encoder.encode(VERSION + encodeSseEvent(delta(1)));
      throw boom;
    }
    const { events, error } = await collectUntilError(parseEventStream(failing()));
    expect(events).toEqual([delta(1)]);
    expect(error).toBe(boom);
  });
});

describe('parseEventStream: Response', () => {
  it('reads the body of an event-stream response', async () => {
    const events = await collect(parseEventStream(sseResponse(VERSION + encodeSseEvent(delta(1)))));
    expect(events).toEqual([delta(1)]);
  });

  it("surfaces the server's { error: { code, message } } of a non-2xx response", async () => {
    const response = new Response(JSON.stringify({ error: { code: 'LOUSHO_SESSION_BUSY', message: 'A turn is already running.' } }), {
      status: 409,
      headers: { 'content-type': 'application/json' },
    });
    const { error } = await collectUntilError(parseEventStream(response));
    expect(error).toBeInstanceOf(EventStreamError);
    expect(error).toMatchObject({ code: 'LOUSHO_SESSION_BUSY', message: 'A turn is already running.', status: 409 });
  });

  it('gives LOUSHO_STREAM_HTTP_ERROR with the status when the error body is not the JSON error shape', async () => {
    const response = new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } });
    const { error } = await collectUntilError(parseEventStream(response));
    expect(error).toMatchObject({ code: 'LOUSHO_STREAM_HTTP_ERROR', status: 502 });
    expect((error as Error).message).toContain('502 Bad Gateway');
    expect((error as Error).message).not.toContain('html');
  });

  it('refuses a 2xx response that is not an event stream', async () => {
    const response = new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } });
    const { error } = await collectUntilError(parseEventStream(response));
    expect(error).toMatchObject({ code: 'LOUSHO_STREAM_NOT_SSE', status: 200 });
    expect((error as Error).message).toContain('application/json');
  });

  it('accepts a content type with parameters and any case', async () => {
    const response = new Response(VERSION + encodeSseEvent(delta(1)), { headers: { 'content-type': 'Text/Event-Stream; charset=UTF-8' } });
    expect(await collect(parseEventStream(response))).toEqual([delta(1)]);
  });

  it('refuses a response whose body was already read', async () => {
    const response = sseResponse(VERSION);
    await response.text();
    const { error } = await collectUntilError(parseEventStream(response));
    expect(error).toMatchObject({ code: 'LOUSHO_STREAM_BODY_UNAVAILABLE' });
  });
});

describe('parseEventStream: stopping', () => {
  it('abort stops a stream that is waiting for data: AbortError, source cancelled, lock released', async () => {
    const source = controllableStream([VERSION, encodeSseEvent(delta(1))]);
    const controller = new AbortController();
    const stream = parseEventStream(source.stream, { signal: controller.signal });
    await expect(stream.next()).resolves.toEqual({ value: delta(1), done: false });
    const pending = stream.next(); // waits: the source has nothing more yet
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(source.log.cancelled).toHaveLength(1);
    expect(source.stream.locked).toBe(false);
    await expect(stream.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it('abort while events of a chunk are still queued stops before handing out the rest', async () => {
    const source = controllableStream([VERSION + encodeSseEvent(delta(1)) + encodeSseEvent(delta(2)) + encodeSseEvent(delta(3))]);
    const controller = new AbortController();
    const seen: AgentStreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of parseEventStream(source.stream, { signal: controller.signal })) {
        seen.push(event);
        controller.abort(new DOMException('stop', 'AbortError'));
      }
    } catch (error) {
      caught = error;
    }
    expect(seen).toEqual([delta(1)]);
    expect(caught).toMatchObject({ name: 'AbortError' });
    expect(source.stream.locked).toBe(false);
  });

  it('abort stops waiting on an async iterable that never yields', async () => {
    let returned = false;
    const hanging: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<Uint8Array>>(() => {}),
        return: async () => {
          returned = true;
          return { value: undefined, done: true };
        },
      }),
    };
    const controller = new AbortController();
    const pending = parseEventStream(hanging, { signal: controller.signal }).next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await Promise.resolve();
    await Promise.resolve();
    expect(returned).toBe(true);
  });

  it('an already aborted signal throws on the first next() without reading the source', async () => {
    const source = controllableStream([VERSION]);
    const stream = parseEventStream(source.stream, { signal: AbortSignal.abort() });
    await expect(stream.next()).rejects.toMatchObject({ name: 'AbortError' });
    expect(source.stream.locked).toBe(false);
  });

  it('break cancels the source and releases the lock', async () => {
    const source = controllableStream([VERSION, encodeSseEvent(delta(1)), encodeSseEvent(delta(2))]);
    for await (const event of parseEventStream(source.stream)) {
      expect(event).toEqual(delta(1));
      break;
    }
    expect(source.log.cancelled).toHaveLength(1);
    expect(source.stream.locked).toBe(false);
  });

  it('a parse error cancels the source and releases the lock', async () => {
    const source = controllableStream([VERSION, 'data: {bad\n\n']);
    const { error } = await collectUntilError(parseEventStream(source.stream));
    expect(error).toMatchObject({ code: 'LOUSHO_STREAM_BAD_JSON' });
    expect(source.log.cancelled).toHaveLength(1);
    expect(source.stream.locked).toBe(false);
  });

  it('a stream read to its end is released without being cancelled', async () => {
    const source = controllableStream([VERSION, encodeSseEvent(delta(1))]);
    source.close();
    expect(await collect(parseEventStream(source.stream))).toEqual([delta(1)]);
    expect(source.log.cancelled).toHaveLength(0);
    expect(source.stream.locked).toBe(false);
  });

  it('throw() closes the stream and rejects with the given error', async () => {
    const source = controllableStream([VERSION, encodeSseEvent(delta(1))]);
    const stream = parseEventStream(source.stream);
    await stream.next();
    const reason = new Error('consumer gave up');
    await expect(stream.throw(reason)).rejects.toBe(reason);
    expect(source.stream.locked).toBe(false);
    await expect(stream.next()).resolves.toEqual({ value: undefined, done: true });
  });
});

describe('createEventStreamDecoder', () => {
  it('delivers events synchronously per pushed chunk (bytes or text)', () => {
    const seen: AgentStreamEvent[] = [];
    const decoder = createEventStreamDecoder((event) => seen.push(event));
    decoder.push(VERSION);
    const bytes = encoder.encode(encodeSseEvent(delta(1, '😀')));
    decoder.push(bytes.subarray(0, 40));
    expect(seen).toEqual([]);
    decoder.push(bytes.subarray(40));
    expect(seen).toEqual([delta(1, '😀')]);
    expect(decoder.version).toBe(PROTOCOL_VERSION);
    expect(decoder.lastEventId).toBe('1');
  });

  it('keeps failing once it failed', () => {
    const decoder = createEventStreamDecoder(() => {});
    expect(() => decoder.push(`${VERSION}data: x\n\n`)).toThrow(EventStreamError);
    expect(() => decoder.push(encodeSseEvent(delta(1)))).toThrow(/not JSON/);
  });
});
