import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/contracts/events.js';
import { PROTOCOL_VERSION, createSseEventEncoder, encodeSseComment, encodeSseEvent, encodeSseRetry, encodeSseVersion, sseHeaders } from '../../src/protocol/index.js';

describe('SSE encoding', () => {
  it('writes an event as id:<seq> and one data: line of JSON without seq, even when its text has newlines', () => {
    const event: AgentStreamEvent = { type: 'text.delta', seq: 12, runId: 'run_1', step: 1, delta: 'line one\nline two\r\n' };
    const frame = encodeSseEvent(event);
    // A frame of its own says everything but `seq` (which is its id).
    expect(frame).toBe(`id: 12\ndata: {"type":"text.delta","runId":"run_1","step":1,"delta":"line one\\nline two\\r\\n"}\n\n`);
    expect(frame.split('\n')).toHaveLength(4); // id, data, blank, ''
  });

  it('a stream says once what does not change: a ~4-character delta is id + type + delta, at most 57 bytes', () => {
    const encode = createSseEventEncoder();
    const base = { runId: 'run_feb9d9f8e18c4b659954', sessionId: 'sess_0123456789abcdef0123456789abcdef' };
    expect(encode({ type: 'run.start', model: 'm', seq: 1, ...base })).toBe(
      `id: 1\ndata: {"type":"run.start","model":"m","runId":"${base.runId}","sessionId":"${base.sessionId}"}\n\n`,
    );
    expect(encode({ type: 'step.start', step: 1, seq: 2, ...base })).toBe('id: 2\ndata: {"type":"step.start","step":1}\n\n');
    const delta = encode({ type: 'text.delta', step: 1, delta: 'Hel ', seq: 1_234_567, ...base });
    expect(delta).toBe('id: 1234567\ndata: {"type":"text.delta","delta":"Hel "}\n\n');
    expect(new TextEncoder().encode(delta).length).toBeLessThanOrEqual(57);
    // run.done says how the run ended, not the reply again.
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, estimated: false, modelCalls: 1, byModel: {}, promptTokens: 1, completionTokens: 1 };
    expect(encode({ type: 'run.done', finishReason: 'stop', usage, text: 'Hel lo', steps: 1, seq: 1_234_568, ...base })).not.toContain('Hel lo');
    // A new step, a new run: said when they change. Types outside text, reasoning and step say
    // their step every time (rare events: a tool call's step costs 9 bytes).
    expect(encode({ type: 'text.delta', step: 2, delta: 'x', seq: 9, ...base })).toContain('"step":2');
    expect(encode({ type: 'tool.call', step: 2, toolCallId: 'c', toolName: 't', displayName: 't', args: {}, seq: 10, ...base })).toContain('"step":2');
    expect(encode({ type: 'run.start', model: 'm', seq: 11, ...base, runId: 'run_2' })).toBe('id: 11\ndata: {"type":"run.start","model":"m","runId":"run_2"}\n\n');
    // An event without a number has no id line.
    expect(encode({ type: 'error', error: { code: 'X', message: 'y' }, runId: 'run_2' } as unknown as AgentStreamEvent)).toBe(
      'data: {"type":"error","error":{"code":"X","message":"y"}}\n\n',
    );
  });

  it('starts a stream with a named version frame', () => {
    expect(PROTOCOL_VERSION).toBe('lousho.v2');
    expect(encodeSseVersion()).toBe('event: protocol\ndata: {"version":"lousho.v2"}\n\n');
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
