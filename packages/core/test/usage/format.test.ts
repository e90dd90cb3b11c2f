import { describe, expect, it } from 'vitest';
import { formatUsage, UsageTracker } from '../../src/usage/index.js';

const base = { inputTokens: 1234, outputTokens: 567, modelCalls: 2, estimated: false };

describe('formatUsage', () => {
  it('prints the documented line', () => {
    expect(formatUsage({ ...base, costUsd: 0.0042 })).toBe('1,234 in / 567 out tokens · $0.0042 (2 model calls)');
  });

  it('marks estimated usage with a leading ~', () => {
    expect(formatUsage({ ...base, costUsd: 0.0042, estimated: true })).toBe('~1,234 in / 567 out tokens · $0.0042 (2 model calls)');
  });

  it('leaves the cost out when it is unknown', () => {
    expect(formatUsage({ ...base, costUsd: undefined })).toBe('1,234 in / 567 out tokens (2 model calls)');
  });

  it('says "1 model call" in the singular', () => {
    expect(formatUsage({ ...base, modelCalls: 1, costUsd: 0.5 })).toBe('1,234 in / 567 out tokens · $0.50 (1 model call)');
    expect(formatUsage({ ...base, modelCalls: 0, costUsd: 0 })).toBe('1,234 in / 567 out tokens · $0.00 (0 model calls)');
  });

  it('groups thousands without depending on the locale', () => {
    expect(formatUsage({ inputTokens: 1_234_567, outputTokens: 0, modelCalls: 1_500, costUsd: 1234.5 })).toBe(
      '1,234,567 in / 0 out tokens · $1,234.50 (1,500 model calls)',
    );
  });

  it.each([
    [0, '$0.00'],
    [0.42, '$0.42'],
    [0.4, '$0.40'],
    [0.123, '$0.12'],
    [0.042, '$0.042'],
    [0.0123, '$0.012'],
    [0.00421, '$0.0042'],
    [0.000012, '$0.000012'],
    [0.0000012, '$0.000001'],
    [0.0000001, '<$0.000001'],
    [0.00999, '$0.01'],
    [0.999, '$1.00'],
    [1, '$1.00'],
    [12.3456, '$12.35'],
    [1234.5, '$1,234.50'],
  ])('prints a cost of %s USD as %s', (usd, text) => {
    expect(formatUsage({ ...base, costUsd: usd })).toBe(`1,234 in / 567 out tokens · ${text} (2 model calls)`);
  });

  it('reads older usage that only has the deprecated names', () => {
    expect(formatUsage({ promptTokens: 10, completionTokens: 2 })).toBe('10 in / 2 out tokens');
  });

  it('formats a tracked run', () => {
    const tracker = new UsageTracker();
    tracker.record({ model: 'gpt-4o-mini', reported: { promptTokens: 1000, completionTokens: 200 }, estimateInput: () => 0, estimateOutput: () => 0 });
    // 1000 x $0.15/M + 200 x $0.60/M = $0.00027
    expect(formatUsage(tracker.snapshot())).toBe('1,000 in / 200 out tokens · $0.00027 (1 model call)');
  });
});
