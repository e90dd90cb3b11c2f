// "Usage and cost of a run" in the API overview. Its snippet runs `AgentExecutor.execute()`, which
// lives in the agent loop (not built yet); the loop records each model call in a UsageTracker and
// returns `tracker.snapshot()` as `result.usage`. This test drives a tracker the way that run would
// (two gpt-4o-mini calls, one delegated child) and checks every line of the snippet against it.
// The snippet itself runs against AgentExecutor in packages/build-ai-agent/test/docs/snippets.test.ts.
import { describe, expect, it } from 'vitest';
import { formatUsage, UsageTracker, type RunUsage, type StepUsage } from '../../src/usage/index.js';

function compareThreeCities(): { usage: RunUsage; stepUsage: StepUsage[] } {
  const tracker = new UsageTracker();
  const stepUsage: StepUsage[] = [];
  stepUsage.push(tracker.record({ model: 'gpt-4o-mini', reported: { promptTokens: 700, completionTokens: 300 }, estimateInput: () => 0, estimateOutput: () => 0 }));
  stepUsage.push(tracker.record({ model: 'gpt-4o-mini', reported: { promptTokens: 534, completionTokens: 267 }, estimateInput: () => 0, estimateOutput: () => 0 }));
  return { usage: tracker.snapshot(), stepUsage };
}

describe('docs: usage and cost of a run', () => {
  it('matches the fields and the formatted line of the snippet', () => {
    const result = compareThreeCities();

    expect(result.usage.inputTokens).toBe(1234);
    expect(result.usage.costUsd).toBeCloseTo((1234 * 0.15 + 567 * 0.6) / 1e6, 15);
    expect(result.usage.estimated).toBe(false);
    expect(result.usage.byModel['gpt-4o-mini']).toEqual({ inputTokens: 1234, outputTokens: 567, costUsd: result.usage.costUsd, calls: 2 });
    expect(Object.keys(result.stepUsage?.[0] ?? {}).sort()).toEqual(['costUsd', 'estimated', 'model', 'step', 'usage']);
    expect(result.stepUsage?.[0]).toMatchObject({ step: 1, model: 'gpt-4o-mini', estimated: false });
    // 1,234 in / 567 out at gpt-4o-mini prices is about half a tenth of a cent.
    expect(formatUsage(result.usage)).toBe('1,234 in / 567 out tokens · $0.00053 (2 model calls)');
  });
});
