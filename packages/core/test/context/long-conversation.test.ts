import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, estimateTokens, memoryStore, registerModel, twoPhaseStrategy, type GenerateOptions } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

const WINDOW = 4000;
registerModel({ id: 'tiny-window', provider: 'mock', contextWindow: WINDOW, inputCostPerMTok: 1, outputCostPerMTok: 2 });
registerModel({ id: 'summary-model', provider: 'mock', contextWindow: 100_000, inputCostPerMTok: 1, outputCostPerMTok: 2 });

/** What a request takes, measured as the window sees it: system prompt, messages and tool definitions. */
const requestTokens = (request: GenerateOptions) =>
  estimateTokens([...(request.system ? [{ role: 'system' as const, content: request.system }] : []), ...request.messages], { model: 'tiny-window' }) +
  (request.tools?.length ? estimateTokens(JSON.stringify(request.tools), { model: 'tiny-window' }) : 0);

describe('a long conversation on a small context window', () => {
  it('200 turns with large tool results: no request goes over the window, and the cost per turn stays flat', async () => {
    const readPage = defineTool({ name: 'read_page', description: 'Reads a page', input: z.object({ page: z.number() }), execute: async ({ page }) => `page ${page}: ${'lorem ipsum '.repeat(250)}` });
    const sizes: number[] = [];
    // Each turn: the model reads a page (a ~750-token result), then answers.
    const provider = mockModel(
      [
        (request) => {
          sizes.push(requestTokens(request));
          const last = request.messages.at(-1)!;
          return last.role === 'tool' ? `Page read (${sizes.length}).` : { toolCalls: [{ name: 'read_page', args: { page: sizes.length } }] };
        },
      ],
      { model: 'tiny-window', whenExhausted: 'repeat-last' },
    );
    const summarizer = mockModel(['The user had the assistant read many pages, one per question; each was read and acknowledged.'], { model: 'summary-model', whenExhausted: 'repeat-last' });
    const agent = createAgent({ provider, tools: [readPage], store: memoryStore(), instructions: 'You read pages.', compaction: { strategy: twoPhaseStrategy({ model: summarizer }) } });
    const session = agent.session('long');

    const costs: number[] = [];
    const lengths: number[] = [];
    for (let turn = 0; turn < 200; turn++) {
      const result = await session.send(`Please read page ${turn} and tell me about it.`);
      expect(result.finishReason).toBe('stop');
      costs.push(result.usage.costUsd!);
      lengths.push(session.messages.length);
    }

    expect(sizes).toHaveLength(400);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(WINDOW);
    // Compaction really ran: the transcript stays bounded and old turns were summarized.
    expect(summarizer.calls.length).toBeGreaterThan(5);
    // The transcript grows, is summarized, grows again: its longest in the second hundred turns is no
    // longer than in the first.
    expect(Math.max(...lengths.slice(100))).toBeLessThanOrEqual(Math.max(...lengths.slice(0, 100)));
    // Flat: turns 181-200 cost about what turns 21-40 did (summaries included), not ten times more.
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const early = mean(costs.slice(20, 40));
    const late = mean(costs.slice(180, 200));
    expect(late / early).toBeLessThan(1.25);
    expect(late / early).toBeGreaterThan(0.75);
  }, 120_000);
});
