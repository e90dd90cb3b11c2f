import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/events/types.js';
import { encodeSseComment, encodeSseEvent, encodeSseRetry, encodeSseVersion, parseEventStream } from '../../src/protocol/index.js';
import { reduceAgentEvents, type AgentUIState } from '../../src/ui-state/index.js';
import { arbChunking, arbEvents, arbRunEvents, chunkBytes, collect, fromChunks } from './arbitraries.js';

const encoder = new TextEncoder();

function reduceAll(events: readonly AgentStreamEvent[]): AgentUIState | undefined {
  let state: AgentUIState | undefined;
  for (const event of events) state = reduceAgentEvents(state, event);
  return state;
}

type LineEnding = '\n' | '\r\n' | '\r';

interface WireStyle {
  lineEnding: LineEnding;
  /** Keep-alive comments, `retry:` lines and unknown named frames between events. */
  noise: boolean[];
  /** Pretty-printed JSON over several `data:` lines. */
  multiLine: boolean[];
}

const arbWireStyle: fc.Arbitrary<WireStyle> = fc.record({
  lineEnding: fc.constantFrom<LineEnding>('\n', '\r\n', '\r'),
  noise: fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
  multiLine: fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
});

/** Serializes events as a server could: the version frame, then the events, with optional noise. */
function serialize(events: readonly AgentStreamEvent[], style: WireStyle): string {
  let text = encodeSseVersion();
  events.forEach((event, i) => {
    if (style.noise[i % style.noise.length]) {
      text += encodeSseComment('keep-alive') + encodeSseRetry(1000) + 'event: lousho.future\ndata: {"x":1}\n\n' + ':\n';
    }
    if (style.multiLine[i % style.multiLine.length]) {
      // Pretty JSON has newlines only between tokens, so each line can be its own `data:` field.
      const lines = JSON.stringify(event, null, 1).split('\n');
      text += `id: ${event.seq}\n${lines.map((line) => `data:${line}`).join('\n')}\n\n`;
    } else {
      text += encodeSseEvent(event);
    }
  });
  return style.lineEnding === '\n' ? text : text.replace(/\n/g, style.lineEnding);
}

describe('encode → chunk → parseEventStream', () => {
  it('gives back the same events for any events, line endings, noise and chunking (down to one byte)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(arbEvents, arbRunEvents), arbWireStyle, arbChunking, async (events, style, sizes) => {
        const bytes = encoder.encode(serialize(events, style));
        const parsed = await collect(parseEventStream(fromChunks(chunkBytes(bytes, sizes))));
        expect(parsed).toEqual(events);
      }),
      { numRuns: 300 },
    );
  });

  it('reducing the parsed events gives the same state as reducing the originals', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(arbRunEvents, arbEvents), arbChunking, async (events, sizes) => {
        const bytes = encoder.encode(serialize(events, { lineEnding: '\n', noise: [false], multiLine: [false] }));
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunkBytes(bytes, sizes)) controller.enqueue(chunk);
            controller.close();
          },
        });
        let state: AgentUIState | undefined;
        for await (const event of parseEventStream(stream)) state = reduceAgentEvents(state, event);
        expect(state).toEqual(reduceAll(events));
      }),
      { numRuns: 200 },
    );
  });

  it('splits inside a multi-byte character are decoded correctly (every split point of an emoji/CJK event)', async () => {
    const event: AgentStreamEvent = { type: 'text.delta', seq: 1, runId: 'r', step: 1, delta: '中文 😀 👍🏽 é' };
    const bytes = encoder.encode(encodeSseVersion() + encodeSseEvent(event));
    for (let cut = 1; cut < bytes.length; cut++) {
      const parsed = await collect(parseEventStream(fromChunks([bytes.subarray(0, cut), bytes.subarray(cut)])));
      expect(parsed).toEqual([event]);
    }
  });
});
