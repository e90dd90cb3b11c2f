import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/contracts/events.js';
import { createSseEventEncoder, encodeSseComment, encodeSseEvent, encodeSseRetry, encodeSseVersion, parseEventStream } from '../../src/protocol/index.js';
import { reduceAgentEvents, type AgentUIState } from '../../src/ui-state/index.js';
import { arbChunking, arbEvents, arbRunEvents, chunkBytes, collect, fromChunks, wireForm } from './arbitraries.js';

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

/**
 * Many runs and sessions in one stream, and events without a number: every way the context
 * fields (`runId`, `sessionId`, `seq`) may change from event to event. (Every event has a run; a
 * stream's events all have a session, or none has: a stream of a session, or of a run without one.)
 */
const arbMixedContext: fc.Arbitrary<AgentStreamEvent[]> = fc
  .tuple(arbEvents, fc.array(fc.tuple(fc.constantFrom('run_1', 'run_2', 'run_3'), fc.constantFrom('sess_1', 'sess_2'), fc.boolean()), { minLength: 1 }), fc.boolean())
  .map(([events, contexts, sessionless]) =>
    events.map((event, i) => {
      const [runId, sessionId, numbered] = contexts[i % contexts.length]!;
      const { runId: _r, sessionId: _s, seq, ...rest } = event;
      return { ...rest, ...(numbered ? { seq } : {}), runId, ...(sessionless ? {} : { sessionId }) } as AgentStreamEvent;
    }),
  );

/** Serializes events as a server could: the version frame, then the events (one v2 encoder for the stream), with optional noise. */
function serialize(events: readonly AgentStreamEvent[], style: WireStyle): string {
  let text = encodeSseVersion();
  const encode = createSseEventEncoder();
  events.forEach((event, i) => {
    if (style.noise[i % style.noise.length]) {
      text += encodeSseComment('keep-alive') + encodeSseRetry(1000) + 'event: lousho.future\ndata: {"x":1}\n\n' + ':\n';
    }
    const frame = encode(event);
    if (style.multiLine[i % style.multiLine.length]) {
      // Pretty JSON has newlines only between tokens, so each line can be its own `data:` field.
      const json = frame.slice(frame.indexOf('data:') + 5, -2);
      const lines = JSON.stringify(JSON.parse(json), null, 1).split('\n');
      text += `${typeof event.seq === 'number' ? `id: ${event.seq}\n` : ''}${lines.map((line) => `data:${line}`).join('\n')}\n\n`;
    } else {
      text += frame;
    }
  });
  return style.lineEnding === '\n' ? text : text.replace(/\n/g, style.lineEnding);
}

describe('encode → chunk → parseEventStream', () => {
  it('gives back the same events for any events, line endings, noise and chunking (down to one byte)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(arbEvents, arbRunEvents, arbMixedContext), arbWireStyle, arbChunking, async (events, style, sizes) => {
        const bytes = encoder.encode(serialize(events, style));
        const parsed = await collect(parseEventStream(fromChunks(chunkBytes(bytes, sizes))));
        expect(parsed).toEqual(wireForm(events));
        // No field restored that the event did not have (`step: 1` on a \`tool.done\` would fail
        // toEqual anyway; this also shows which). A sessionless stream's events read
        // \`sessionId: undefined\`, as JSON and \`toEqual\` see them: no session.
        const keys = (list: readonly object[]) => list.map((event) => Object.keys(event).filter((key) => (event as Record<string, unknown>)[key] !== undefined).sort());
        expect(keys(parsed)).toEqual(keys(wireForm(events)));
      }),
      { numRuns: 300 },
    );
  }, 60_000);

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
  }, 60_000);

  it('splits inside a multi-byte character are decoded correctly (every split point of an emoji/CJK event)', async () => {
    const event: AgentStreamEvent = { type: 'text.delta', seq: 1, runId: 'r', step: 1, delta: '中文 😀 👍🏽 é' };
    const bytes = encoder.encode(encodeSseVersion() + encodeSseEvent(event));
    for (let cut = 1; cut < bytes.length; cut++) {
      const parsed = await collect(parseEventStream(fromChunks([bytes.subarray(0, cut), bytes.subarray(cut)])));
      expect(parsed).toEqual([event]);
    }
  });
});
