import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseEventEncoder, encodeSseVersion, sseHeaders, type AgentStreamEvent } from '@lousho/protocol';
// The protocol's arbitraries: one copy, in core's tests.
import { arbDelta } from '../../protocol/test/protocol/arbitraries.js';
import { createHttpTransport } from '../src/http-transport.js';

// The HTTP client joins consecutive deltas of one part read together before parsing them
// (`merge`): whatever the texts, the parts and the cuts, each merged delta must stand for exactly
// the deltas it says (`fromSeq`..`seq`), all of one part, with their texts joined.

type Delta = Extract<AgentStreamEvent, { type: 'text.delta' | 'reasoning.delta' | 'tool.input.delta' }>;

/** Which part a delta extends; a step starts new text and reasoning parts. */
const partOf = (event: AgentStreamEvent, step: number): string =>
  JSON.stringify([event.type, (event as { toolCallId?: string }).toolCallId, event.subagent?.toolCallId, event.type === 'tool.input.delta' ? 0 : step]);

const arbItem = fc.oneof(
  fc.record({ kind: fc.constantFrom('text.delta', 'reasoning.delta'), delta: arbDelta, subagent: fc.constantFrom(undefined, 'a', 'b') }),
  fc.record({ kind: fc.constant('tool.input.delta'), delta: arbDelta, toolCallId: fc.constantFrom('call_1', 'call_2') }),
  fc.record({ kind: fc.constant('step.start') }),
  // A delta the server merged already (a reader that was behind).
  fc.record({ kind: fc.constant('merged'), delta: arbDelta, pieces: fc.integer({ min: 2, max: 4 }) }),
);

/** The events a server would log for `items`, with their seqs. */
function eventsOf(items: fc.Arbitrary<any> extends fc.Arbitrary<infer T> ? T[] : never): AgentStreamEvent[] {
  let seq = 0;
  let step = 1;
  const base = { runId: 'run_1', sessionId: 's1' };
  const events: AgentStreamEvent[] = [];
  for (const item of items) {
    if (item.kind === 'step.start') events.push({ type: 'step.start', step: ++step, seq: ++seq, ...base } as AgentStreamEvent);
    else if (item.kind === 'merged') {
      const fromSeq = seq + 1;
      seq += item.pieces;
      events.push({ type: 'text.delta', step, delta: item.delta, seq, ...base, fromSeq } as AgentStreamEvent);
    } else {
      const subagent = item.subagent && { name: item.subagent, depth: 1, toolCallId: `task_${item.subagent}` };
      events.push({ type: item.kind, ...(item.kind === 'tool.input.delta' ? { toolCallId: item.toolCallId } : { step }), delta: item.delta, seq: ++seq, ...base, ...(subagent && { subagent }) } as AgentStreamEvent);
    }
  }
  return events;
}

async function read(bytes: Uint8Array, cuts: number[], merge: boolean): Promise<AgentStreamEvent[]> {
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    chunks.push(bytes.subarray(at, cut));
    at = cut;
  }
  chunks.push(bytes.subarray(at));
  const transport = createHttpTransport({
    url: 'http://agent.invalid',
    fetch: async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        }),
        { headers: sseHeaders },
      ),
  });
  const events: AgentStreamEvent[] = [];
  await (await transport.follow('s1', 0, new AbortController().signal))((event) => events.push(event), merge);
  return events;
}

describe('merged deltas (property)', () => {
  it('stand for exactly the deltas of one part they say, with their texts joined, however the stream is cut', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbItem, { minLength: 1, maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), async (items, cuts) => {
        const written = eventsOf(items);
        const encode = createSseEventEncoder();
        const bytes = new TextEncoder().encode(encodeSseVersion() + written.map(encode).join(''));
        // Without merge: the events as written.
        expect(await read(bytes, cuts, false)).toEqual(written);
        const merged = await read(bytes, cuts, true);
        let next = 0;
        let step = 1;
        for (const event of merged) {
          const first = (event as { fromSeq?: number }).fromSeq ?? event.seq;
          // The events it stands for, in order, none skipped.
          const covered = [];
          while (next < written.length && written[next]!.seq <= event.seq) covered.push(written[next++]!);
          expect(((covered[0] as { fromSeq?: number })?.fromSeq ?? covered[0]?.seq)).toBe(first);
          expect(covered.at(-1)?.seq).toBe(event.seq);
          // (A delta read alone may say its `fromSeq`, its own seq: the transport copies such a delta for the ones after it.)
          if (covered.length === 1) expect(event).toEqual('fromSeq' in event && !('fromSeq' in covered[0]!) ? { ...covered[0], fromSeq: first } : covered[0]);
          else {
            expect(new Set(covered.map((c) => partOf(c, step)))).toEqual(new Set([partOf(event, step)]));
            expect((event as Delta).delta).toBe(covered.map((c) => (c as Delta).delta).join(''));
          }
          if (event.type === 'step.start') step = event.step;
        }
        expect(next).toBe(written.length);
      }),
      { numRuns: 300 },
    );
  });
});
