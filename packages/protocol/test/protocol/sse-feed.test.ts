import { describe, expect, it } from 'vitest';
import { createSseFeed, createSseParser } from '../../src/protocol/decoder.js';
import { CodedError, EventStreamError } from '../../src/protocol/errors.js';
import { SDKError } from '../../src/errors.js';

type Block = [data: string | undefined, event: string | undefined, id: string | undefined];

describe('createSseFeed (the SSE lines under createSseParser)', () => {
  it('hands fields other than data, event and id (comments included, with an empty name) to onField', () => {
    const blocks: Block[] = [];
    const fields: [string, string][] = [];
    const feed = createSseFeed((...block) => blocks.push(block), Infinity, (field, value) => fields.push([field, value]));
    feed(': hi\nretry: 10\nfoo\nevent: x\nid: 7\ndata\ndata: a\n\n');
    expect(fields).toEqual([
      ['', 'hi'],
      ['retry', '10'],
      ['foo', ''],
    ]);
    expect(blocks).toEqual([['\na', 'x', '7']]);
  });

  it('keeps a byte-order mark: its caller (a TextDecoder, or createSseParser) drops it', () => {
    const blocks: Block[] = [];
    const feed = createSseFeed((...block) => blocks.push(block), Infinity);
    feed('\ufeffdata: x\n\ndata: y\n\n');
    // "\ufeffdata" is an unknown field: its block has no data.
    expect(blocks).toEqual([
      [undefined, undefined, undefined],
      ['y', undefined, undefined],
    ]);
  });

  it('throws LOUSHO_STREAM_EVENT_TOO_LARGE past maxEventSize', () => {
    const feed = createSseFeed(() => {}, 8);
    expect(() => feed('data: 0123456789')).toThrow(expect.objectContaining({ code: 'LOUSHO_STREAM_EVENT_TOO_LARGE' }));
  });
});

describe('createSseParser.end()', () => {
  it('drops what is pending, and a byte-order mark is not stripped again afterwards', () => {
    const messages: string[] = [];
    const retries: number[] = [];
    const parser = createSseParser(
      (data) => data !== undefined && messages.push(data),
      (ms) => retries.push(ms),
    );
    parser.feed('\ufeffdata: a\n\ndata: cut\r');
    parser.end();
    parser.feed('\ndata: b\n\n\ufeffdata: c\n\nretry: 5\n\n');
    // The LF after the CR belonged to the ended stream's CRLF no more: it is a blank line now.
    expect(messages).toEqual(['a', 'b']);
    expect(retries).toEqual([5]);
  });
});

describe('the client error classes', () => {
  it('keep their names, codes, status, eventId and cause as own properties, and their instanceof relations', () => {
    const cause = new Error('inner');
    const stream = new EventStreamError('LOUSHO_STREAM_BAD_JSON', 'Event 3 is not valid JSON.', { eventId: '3', cause });
    expect(stream).toBeInstanceOf(CodedError);
    expect(stream).toBeInstanceOf(Error);
    expect(stream).toBeInstanceOf(SDKError);
    expect(SDKError.is(stream)).toBe(true);
    expect(stream).toMatchObject({ name: 'EventStreamError', code: 'LOUSHO_STREAM_BAD_JSON', eventId: '3', message: 'Event 3 is not valid JSON.' });
    // The SDK's error fields: the code's entry in the error reference, and no hint (the docs say it).
    expect(stream).toMatchObject({ hint: '', docs: 'https://lousho.com/errors#lousho-stream-bad-json' });
    expect(stream.status).toBeUndefined();
    expect(stream.cause).toBe(cause);
    expect(Object.hasOwn(stream, 'name')).toBe(true);
    expect(String(stream)).toBe('EventStreamError: Event 3 is not valid JSON.');

    // The cause stays Error's own, not enumerable: an error serialized as JSON does not drag it along.
    expect(Object.keys(stream)).not.toContain('cause');
    expect(new CodedError('X', 'm').name).toBe('SDKError');
  });
});
