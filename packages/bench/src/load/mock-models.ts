/**
 * The two mock models of the load benchmarks: both answer every call with the same `deltas` text
 * deltas at the same pace (see pace.ts), so the servers' own cost is what the load measures.
 */
import type { LLMProvider, StreamChunk } from '@lousho/build-ai-agent';
import { pacer, type Pace } from './pace.js';
import { stampNow } from './latency.js';

/** Deltas per reply: 500, or `BENCH_DELTAS` (to tell a turn's fixed cost from its cost per delta). */
export const DELTAS = Number(process.env.BENCH_DELTAS ?? 500);

const BURST: Pace = { kind: 'burst' };

/**
 * Delta `i` of every reply (distinct, so a reordered or duplicated delta changes the text). With
 * `stamped`, it carries the time it was made (`@<µs>`), for the latency measurement (latency.ts).
 */
export function deltaText(i: number, stamped = false): string {
  return stamped ? `w${i}@${stampNow()} ` : `w${i} `;
}

/** The text every reply must add up to (stamps removed: see `withoutStamps`). */
export function expectedText(deltas = DELTAS): string {
  let text = '';
  for (let i = 0; i < deltas; i++) text += deltaText(i);
  return text;
}

/** A stamped reply's text as the unstamped one. */
export function withoutStamps(text: string): string {
  return text.replace(/@\d+ /g, ' ');
}

/** Counts the streams a model answers, so each draws its own gaps (pace.ts). */
let streams = 0;

/**
 * A Lousho provider that streams `deltas` text deltas per call at `pace` (default: all at once),
 * then finishes. Passing a boolean for `pace` is the older form: true is `tick`.
 */
export function burstProvider(deltas = DELTAS, pace: Pace | boolean = BURST, stamped = false): LLMProvider {
  const paced: Pace = typeof pace === 'boolean' ? (pace ? { kind: 'tick' } : BURST) : pace;
  return {
    name: 'bench',
    defaultModel: 'bench-burst',
    async *stream(): AsyncIterable<StreamChunk> {
      const wait = pacer(paced, streams++);
      for (let i = 0; i < deltas; i++) {
        const due = wait.next();
        if (due) await due;
        yield { type: 'text-delta', text: deltaText(i, stamped) };
      }
      yield { type: 'finish', finishReason: 'stop', usage: { promptTokens: 10, completionTokens: deltas } };
    },
  };
}

/** The AI SDK's `MockLanguageModelV3` (from `ai/test`), streaming the same deltas per call at the same pace. */
export function burstLanguageModel(aiTest: any, deltas = DELTAS, pace: Pace = BURST, stamped = false): unknown {
  const finish = {
    type: 'finish',
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: deltas, text: deltas, reasoning: undefined },
    },
  };
  if (pace.kind === 'burst' && !stamped) {
    const parts: unknown[] = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't1' }];
    for (let i = 0; i < deltas; i++) parts.push({ type: 'text-delta', id: 't1', delta: deltaText(i) });
    parts.push({ type: 'text-end', id: 't1' }, finish);
    return new aiTest.MockLanguageModelV3({ doStream: async () => ({ stream: aiTest.convertArrayToReadableStream(parts) }) });
  }
  return new aiTest.MockLanguageModelV3({
    doStream: async () => {
      const wait = pacer(pace, streams++);
      let i = -2;
      const stream = new ReadableStream({
        async pull(controller) {
          if (i === -2) controller.enqueue({ type: 'stream-start', warnings: [] });
          else if (i === -1) controller.enqueue({ type: 'text-start', id: 't1' });
          else if (i < deltas) {
            const due = wait.next();
            if (due) await due;
            controller.enqueue({ type: 'text-delta', id: 't1', delta: deltaText(i, stamped) });
          } else {
            controller.enqueue({ type: 'text-end', id: 't1' });
            controller.enqueue(finish);
            controller.close();
          }
          i++;
        },
      });
      return { stream };
    },
  });
}
