/**
 * The two mock models of the load benchmark: both answer every call at once with the same
 * `DELTAS` text deltas and no delay, so the servers' own cost is what the load measures.
 */
import type { LLMProvider, StreamChunk } from '@lousho/build-ai-agent';

/** Deltas per reply: 500, or `BENCH_DELTAS` (to tell a turn's fixed cost from its cost per delta). */
export const DELTAS = Number(process.env.BENCH_DELTAS ?? 500);

/** Delta `i` of every reply (distinct, so a reordered or duplicated delta changes the text). */
export function deltaText(i: number): string {
  return `w${i} `;
}

/** The text every reply must add up to. */
export function expectedText(deltas = DELTAS): string {
  let text = '';
  for (let i = 0; i < deltas; i++) text += deltaText(i);
  return text;
}

/**
 * A Lousho provider that streams `deltas` text deltas per call, then finishes. `paced`: it yields
 * to the event loop (`setImmediate`) before each delta, as a model streaming tokens does, so a
 * reader that keeps up gets each delta in a write of its own (without it, a turn's deltas come at
 * once and go out in 32 KB writes).
 */
export function burstProvider(deltas = DELTAS, paced = false): LLMProvider {
  return {
    name: 'bench',
    defaultModel: 'bench-burst',
    async *stream(): AsyncIterable<StreamChunk> {
      for (let i = 0; i < deltas; i++) {
        if (paced) await new Promise((resolve) => setImmediate(resolve));
        yield { type: 'text-delta', text: deltaText(i) };
      }
      yield { type: 'finish', finishReason: 'stop', usage: { promptTokens: 10, completionTokens: deltas } };
    },
  };
}

/** The AI SDK's `MockLanguageModelV3` (from `ai/test`), streaming the same deltas per call. */
export function burstLanguageModel(aiTest: any, deltas = DELTAS): unknown {
  const parts: unknown[] = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't1' }];
  for (let i = 0; i < deltas; i++) parts.push({ type: 'text-delta', id: 't1', delta: deltaText(i) });
  parts.push(
    { type: 'text-end', id: 't1' },
    {
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: deltas, text: deltas, reasoning: undefined },
      },
    },
  );
  return new aiTest.MockLanguageModelV3({
    doStream: async () => ({ stream: aiTest.convertArrayToReadableStream(parts) }),
  });
}
