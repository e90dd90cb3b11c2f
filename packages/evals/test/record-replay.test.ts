import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mockModel, recordReplay } from '@lousho/core/testing';
import { budget, defineEval, exactMatch, runEval, toolCallOrder } from '../src/index.js';
import { refundAgent } from './refund-agent.js';

const committed = fileURLToPath(new URL('./fixtures/refund-cassette.json', import.meta.url));

/** The "real" model of the recording: looks the order up, refunds it, answers. */
function scriptedModel() {
  return mockModel(
    [
      { toolCalls: [{ name: 'lookup_order', args: { orderId: 'A-1' } }], usage: { promptTokens: 120, completionTokens: 18 } },
      { toolCalls: [{ name: 'refund', args: { orderId: 'A-1', amount: 42 } }], usage: { promptTokens: 170, completionTokens: 22 } },
      { text: 'Refunded $42 for order A-1.', usage: { promptTokens: 220, completionTokens: 9 } },
    ],
    { name: 'openai', model: 'gpt-4o-mini' },
  );
}

const refundEval = (provider: ReturnType<typeof recordReplay>) =>
  defineEval({
    name: 'refunds',
    agent: refundAgent(provider),
    cases: [{ input: 'Please refund order A-1', expected: 'Refunded $42 for order A-1.' }],
    scorers: [exactMatch(), toolCallOrder(['lookup_order', 'refund']), budget({ maxSteps: 3, maxTokens: 600 })],
    concurrency: 1,
  });

describe('evals on recorded model calls (recordReplay)', () => {
  it('a multi-step tool run recorded once replays exactly in an eval, without the model', async () => {
    const cassette = join(await mkdtemp(join(tmpdir(), 'lousho-evals-')), 'refund.json');
    const recorded = await runEval(refundEval(recordReplay({ provider: scriptedModel(), cassette, mode: 'record' })));
    const replayed = await runEval(refundEval(recordReplay({ cassette, mode: 'replay' })));
    for (const report of [recorded, replayed]) {
      expect(report.passed).toBe(true);
      expect(report.score).toBe(1);
    }
    const [a, b] = [recorded.cases[0]!.runs[0]!.output!, replayed.cases[0]!.runs[0]!.output!];
    expect({ ...b, durationMs: 0 }).toEqual({ ...a, durationMs: 0 });
    expect(b).toMatchObject({ text: 'Refunded $42 for order A-1.', toolCalls: ['lookup_order', 'refund'], steps: 3, usage: { inputTokens: 510, outputTokens: 49, estimated: false } });
    // The cassette holds all three model calls, streamed chunk for chunk.
    const saved = JSON.parse(await readFile(cassette, 'utf8')) as { interactions: unknown[] };
    expect(saved.interactions).toHaveLength(3);
  });

  it('the committed cassette replays: same calls, same answer, same usage', async () => {
    const report = await runEval(refundEval(recordReplay({ cassette: committed, mode: 'replay' })));
    expect(report.passed).toBe(true);
    expect(report.cases[0]!.scores).toMatchObject({ exactMatch: { score: 1 }, toolCallOrder: { score: 1 }, budget: { score: 1 } });
    expect(report.usage.runs).toMatchObject({ inputTokens: 510, outputTokens: 49, modelCalls: 3 });
    // gpt-4o-mini is priced, so the run has a cost.
    expect(report.usage.runs.costUsd).toBeGreaterThan(0);
  });

  it('a changed agent no longer matches the cassette: the run fails with the mismatch, and the eval fails', async () => {
    const ev = defineEval({
      name: 'refunds',
      agent: refundAgent(recordReplay({ cassette: committed, mode: 'replay' })),
      cases: [{ input: 'Please refund order A-2', expected: 'Refunded $42 for order A-1.' }],
      scorers: [exactMatch()],
    });
    const report = await runEval(ev);
    expect(report.passed).toBe(false);
    expect(report.cases[0]!.runs[0]!.error).toMatchObject({ code: 'LOUSHO_CASSETTE_MISMATCH', message: expect.stringContaining('A-2') });
  });
});
