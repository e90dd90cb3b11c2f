import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser } from '../../src/protocol/decoder.js';
import { PROTOCOL_VERSION, createEventStreamDecoder, encodeSseVersion } from '../../src/protocol/index.js';
import type { AgentStreamEvent } from '../../src/contracts/events.js';

interface Message {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/** Lines a stream may hold, the awkward ones included (no line ends inside: those come from `arbEnding`). */
const arbLine = fc.oneof(
  fc.constantFrom(
    '',
    '',
    'data',
    'data:',
    'data: ',
    'data:x',
    'data: hello',
    'data:  two spaces',
    'data: a:b: c',
    'data: {"type":"text.delta","delta":"é中😀"}',
    'id',
    'id:',
    'id: 7',
    'id:42',
    'id: a\u0000b',
    'event',
    'event:',
    'event: update',
    'event:protocol',
    'retry: 1500',
    'retry:20',
    'retry: 1.5',
    'retry: -1',
    'retry:',
    'retry',
    ':',
    ': keep-alive',
    ':data: not a field',
    'foo: bar',
    'DATA: upper case is another field',
    ' data: a leading space is another field',
    'data\u0000: nul in a name',
  ),
  fc.tuple(fc.constantFrom('data', 'id', 'event', 'retry', 'x'), fc.constantFrom(':', ': ', ':  ', ''), fc.string({ unit: fc.constantFrom('a', ' ', ':', 'é', '😀', '\u0000', '1') })).map(
    ([field, colon, value]) => field + colon + value,
  ),
);

const arbEnding = fc.constantFrom('\n', '\r\n', '\r');

/** A stream: lines with random line ends, maybe a byte-order mark first, maybe an unfinished last line. */
const arbStream = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(arbLine, arbEnding), { maxLength: 40 }), fc.constantFrom('', 'data: unfinished', 'id: 9'))
  .map(([bom, lines, tail]) => ({ bom, body: lines.map(([line, ending]) => line + ending).join('') + tail }));

/** Cut points in a string: every character alone, or random sizes. */
const arbCuts = fc.oneof(fc.constant([1]), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 }), fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 4 }));

function cut(text: string, sizes: readonly number[]): string[] {
  const out: string[] = [];
  for (let offset = 0, i = 0; offset < text.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(text.slice(offset, offset + size));
    offset += size;
  }
  return out;
}

/**
 * eventsource-parser, the reference. It holds a CR back until a later chunk with a line end
 * arrives (to see whether an LF follows), so at the end it is fed one more CR: that settles every
 * held CR, and, being last, is itself held, so an unfinished last line stays unfinished.
 */
function reference(chunks: readonly string[]): { messages: Message[]; retries: number[] } {
  const messages: Message[] = [];
  const retries: number[] = [];
  const parser = createParser({ onEvent: ({ id, event, data }) => messages.push({ id, event, data }), onRetry: (ms) => retries.push(ms) });
  for (const chunk of chunks) parser.feed(chunk);
  parser.feed('\r');
  return { messages, retries };
}

function ours(chunks: readonly string[]): { messages: Message[]; retries: number[] } {
  const messages: Message[] = [];
  const retries: number[] = [];
  const parser = createSseParser(
    (data, event, id) => {
      if (data !== undefined) messages.push({ id, event, data });
    },
    (ms) => retries.push(ms),
  );
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return { messages, retries };
}

describe('createSseParser against eventsource-parser', () => {
  it('gives the same events and retry values for random streams and random chunkings', () => {
    fc.assert(
      fc.property(arbStream, arbCuts, ({ bom, body }, sizes) => {
        // eventsource-parser does not strip U+FEFF (it expects a BOM as three Latin-1 characters).
        const chunks = cut((bom ? '\ufeff' : '') + body, sizes);
        expect(ours(chunks)).toEqual(reference(cut(body, sizes)));
      }),
      { numRuns: 1000 },
    );
  });

  it('is not confused by a CR at a chunk end and the LF that starts the next chunk', () => {
    const messages: string[] = [];
    const parser = createSseParser((data) => data !== undefined && messages.push(data));
    for (const chunk of ['data: a\r', '\ndata: b\r', '\n\r', '\n']) parser.feed(chunk);
    expect(messages).toEqual(['a\nb']);
  });

  it('strips one byte-order mark, only at the very start', () => {
    const messages: string[] = [];
    const parser = createSseParser((data) => data !== undefined && messages.push(data));
    for (const chunk of ['', '\ufeff', '\ufeffdata: x\n\n']) parser.feed(chunk);
    // The second U+FEFF starts a line: a field named "\ufeffdata", which is ignored.
    expect(messages).toEqual([]);
    parser.feed('data: y\n\n');
    expect(messages).toEqual(['y']);
  });
});

describe('createEventStreamDecoder: SSE details', () => {
  const event: AgentStreamEvent = { type: 'text.delta', seq: 1, runId: 'r', step: 1, delta: 'x' };

  it('takes the last event ID from any completed block with an id, as EventSource does', () => {
    const decoder = createEventStreamDecoder(() => {});
    decoder.push(`${encodeSseVersion()}id: 5\ndata: ${JSON.stringify(event)}\n\n`);
    expect(decoder.lastEventId).toBe('5');
    decoder.push('id: 6\n\n'); // no data: not an event, but its id counts
    expect(decoder.lastEventId).toBe('6');
    decoder.push('id: bad\u0000id\n\n: comment\n\n');
    expect(decoder.lastEventId).toBe('6');
    decoder.push('id: 7\ndata: '); // not completed yet
    expect(decoder.lastEventId).toBe('6');
  });

  it('reads a stream whose bytes start with a byte-order mark, and only one is stripped', () => {
    const bytes = new TextEncoder().encode(`${encodeSseVersion()}data: ${JSON.stringify(event)}\n\n`);
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
    const seen: AgentStreamEvent[] = [];
    const decoder = createEventStreamDecoder((e) => seen.push(e));
    for (const byte of withBom) decoder.push(new Uint8Array([byte]));
    decoder.end();
    expect(seen).toEqual([event]);
    expect(decoder.version).toBe(PROTOCOL_VERSION);

    // Two marks: the second belongs to the first line ("\ufeffevent: protocol", an unknown
    // field), so the version frame's data arrives as an agent event before any version.
    const twice = createEventStreamDecoder(() => {});
    expect(() => twice.push(new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, ...bytes]))).toThrow(/before the version frame/);
  });

  it('decides a CR at the very end of the stream without waiting for more', () => {
    const seen: AgentStreamEvent[] = [];
    const decoder = createEventStreamDecoder((e) => seen.push(e));
    decoder.push(`${encodeSseVersion()}data: ${JSON.stringify(event)}\r\r`.replace(/\n/g, '\r'));
    expect(seen).toEqual([event]);
  });
});
