import { describe, expect, it } from 'vitest';
import { estimateCost, getModelInfo, registerModel } from '../../src/models/index.js';

describe('estimateCost', () => {
  it('prices input and output tokens per million', () => {
    // gpt-4o-mini: $0.15 in, $0.60 out per million tokens.
    expect(estimateCost({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, 'gpt-4o-mini')).toBeCloseTo(0.75, 12);
    expect(estimateCost({ inputTokens: 1234, outputTokens: 567 }, 'gpt-4o-mini')).toBeCloseTo((1234 * 0.15 + 567 * 0.6) / 1e6, 15);
  });

  it('resolves the model the way getModelInfo does', () => {
    const base = estimateCost({ inputTokens: 1000, outputTokens: 100 }, 'claude-sonnet-4');
    expect(base).toBeCloseTo(0.0045, 12);
    expect(estimateCost({ inputTokens: 1000, outputTokens: 100 }, 'claude-sonnet-4-20250514')).toBe(base);
    expect(estimateCost({ inputTokens: 1000, outputTokens: 100 }, 'anthropic/claude-sonnet-4')).toBe(base);
  });

  it('accepts a ModelInfo instead of an id', () => {
    const cost = estimateCost({ inputTokens: 2_000_000, outputTokens: 0 }, { id: 'inline', provider: 'x', contextWindow: 1, inputCostPerMTok: 1, outputCostPerMTok: 1 });
    expect(cost).toBe(2);
  });

  it('charges cached input tokens at the cache-read price', () => {
    // gpt-4o-mini cache reads: $0.075 per million. Half of 1M input tokens are cached.
    const cost = estimateCost({ inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 500_000 }, 'gpt-4o-mini');
    expect(cost).toBeCloseTo(0.5 * 0.15 + 0.5 * 0.075, 12);
    // More cached tokens than input tokens cannot make the call cheaper than all-cached.
    expect(estimateCost({ inputTokens: 100, outputTokens: 0, cachedInputTokens: 1_000 }, 'gpt-4o-mini')).toBeCloseTo((100 * 0.075) / 1e6, 15);
  });

  it('charges cached tokens at the input price when no cache price is known', () => {
    registerModel({ id: 'no-cache-price', provider: 'acme', contextWindow: 1000, inputCostPerMTok: 2, outputCostPerMTok: 4 });
    expect(estimateCost({ inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 1_000_000 }, 'no-cache-price')).toBe(2);
  });

  it('is undefined, not 0, when the model or a price is unknown', () => {
    const usage = { inputTokens: 1000, outputTokens: 1000 };
    expect(estimateCost(usage, 'mock')).toBeUndefined();
    expect(estimateCost(usage, 'demo')).toBeUndefined();
    expect(estimateCost(usage, 'never-heard-of-it')).toBeUndefined();
    expect(estimateCost(usage, undefined)).toBeUndefined();
    expect(estimateCost(usage, 'llama3.1')).toBeUndefined();
    expect(estimateCost({ inputTokens: 0, outputTokens: 0 }, 'llama3.1')).toBeUndefined();

    registerModel({ id: 'half-priced', provider: 'acme', contextWindow: 1000, inputCostPerMTok: 1 });
    expect(estimateCost(usage, 'half-priced')).toBeUndefined();
  });

  it('is 0 for a priced model that used no tokens, and for a free model registered at 0', () => {
    expect(estimateCost({ inputTokens: 0, outputTokens: 0 }, 'gpt-4o')).toBe(0);
    registerModel({ id: 'free-tier', provider: 'acme', contextWindow: 1000, inputCostPerMTok: 0, outputCostPerMTok: 0 });
    expect(estimateCost({ inputTokens: 5000, outputTokens: 5000 }, 'free-tier')).toBe(0);
  });

  it('is undefined for token counts that are not usable numbers', () => {
    expect(estimateCost({ inputTokens: Number.NaN, outputTokens: 1 }, 'gpt-4o')).toBeUndefined();
    expect(estimateCost({ inputTokens: 1, outputTokens: -1 }, 'gpt-4o')).toBeUndefined();
    expect(estimateCost({ inputTokens: 1, outputTokens: 1, cachedInputTokens: Number.POSITIVE_INFINITY }, 'gpt-4o')).toBeUndefined();
  });

  it('follows registerModel overrides', () => {
    const original = getModelInfo('gpt-4.1-nano')!;
    try {
      registerModel({ ...original, inputCostPerMTok: 10, outputCostPerMTok: 10 });
      expect(estimateCost({ inputTokens: 100_000, outputTokens: 100_000 }, 'gpt-4.1-nano')).toBeCloseTo(2, 12);
    } finally {
      registerModel(original);
    }
  });
});
