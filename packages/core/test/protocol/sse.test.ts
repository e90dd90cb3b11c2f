import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/events/types.js';
import { PROTOCOL_VERSION, encodeSseComment, encodeSseEvent, encodeSseRetry, encodeSseVersion, sseHeaders } from '../../src/protocol/index.js';

describe('SSE encoding', () => {
  it('writes an event as id: <seq> and one data: line of JSON, even when its text has newlines', () => {
    const event: AgentStreamEvent = { type: 'text.delta', seq: 12, runId: 'run_1', step: 1, delta: 'line one\nline two\r\n' };
    const frame = encodeSseEvent(event);
    expect(frame).toBe(`id: 12\ndata: ${JSON.stringify(event)}\n\n`);
    expect(frame.split('\n')).toHaveLength(4); // id, data, blank, ''
    expect(JSON.parse(frame.split('\n')[1]!.slice('data: '.length))).toEqual(event);
  });

  it('starts a stream with a named version frame', () => {
    expect(PROTOCOL_VERSION).toBe('lousho.v1');
    expect(encodeSseVersion()).toBe('event: protocol\ndata: {"version":"lousho.v1"}\n\n');
  });

  it('writes comments (keep-alives), one comment line per text line', () => {
    expect(encodeSseComment('keep-alive')).toBe(': keep-alive\n\n');
    expect(encodeSseComment()).toBe(':\n\n');
    expect(encodeSseComment('a\nb\r\nc')).toBe(': a\n: b\n: c\n\n');
  });

  it('writes retry frames and refuses nonsense', () => {
    expect(encodeSseRetry(3000)).toBe('retry: 3000\n\n');
    expect(() => encodeSseRetry(-1)).toThrow(RangeError);
    expect(() => encodeSseRetry(1.5)).toThrow(RangeError);
  });

  it('has headers that keep proxies from buffering or caching the stream', () => {
    expect(sseHeaders).toEqual({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    expect(Object.isFrozen(sseHeaders)).toBe(true);
  });
});
