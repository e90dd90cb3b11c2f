import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/contracts/events.js';
import { createSseEventEncoder, encodeSseVersion, EventStreamError } from '../../src/protocol/index.js';
import { createEventStreamDecoder as createV1Decoder } from './v1-reader/decoder.js';
import { PROTOCOL_VERSION as V1 } from './v1-reader/sse.js';

describe('a lousho.v1 reader and a lousho.v2 stream', () => {
  it('stops at the version frame with LOUSHO_STREAM_UNSUPPORTED_VERSION, before any event', () => {
    expect(V1).toBe('lousho.v1');
    const encode = createSseEventEncoder();
    const base = { runId: 'run_1', sessionId: 'sess_1' };
    const events: AgentStreamEvent[] = [
      { type: 'run.start', model: 'm', seq: 1, ...base },
      { type: 'step.start', step: 1, seq: 2, ...base },
      { type: 'text.delta', step: 1, delta: 'Hel', seq: 3, ...base },
    ];
    const v2 = encodeSseVersion() + events.map(encode).join('');
    const seen: AgentStreamEvent[] = [];
    const v1 = createV1Decoder((event) => seen.push(event));
    let error: unknown;
    try {
      v1.push(new TextEncoder().encode(v2));
    } catch (caught) {
      error = caught;
    }
    // Its own error class (an older bundle's), with the stable code and a message that names both versions.
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(EventStreamError);
    expect(error).toMatchObject({ name: 'EventStreamError', code: 'LOUSHO_STREAM_UNSUPPORTED_VERSION', message: 'Protocol "lousho.v2" is not lousho.v1.' });
    expect(seen).toEqual([]);
    // And it stays refused: later chunks throw the same error, never events without their numbers.
    expect(() => v1.push('id: 4\ndata: {"type":"text.delta","delta":"lo"}\n\n')).toThrow(error as Error);
    expect(seen).toEqual([]);
  });
});
