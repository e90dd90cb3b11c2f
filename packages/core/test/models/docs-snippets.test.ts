// The "Models, tokens and cost" snippets of the API overview, unchanged except for the import path:
// the root entry is wired up by the lead, so these import the models barrel directly.
import { describe, expect, it } from 'vitest';
import { estimateTokens, estimateCost, getModelInfo, registerModel } from '../../src/models/index.js';

describe('docs: models, tokens and cost', () => {
  it('runs the registry / tokens / cost snippet', () => {
    // A custom or self-hosted model: add it (or override a built-in) before use.
    registerModel({
      id: 'my-llama',
      provider: 'ollama',
      contextWindow: 32768,
      inputCostPerMTok: 0.2, // optional; omit for unknown or free
      outputCostPerMTok: 0.6,
    });

    const used = estimateTokens([{ role: 'user', content: 'Summarise this report' }], { model: 'my-llama' });
    const info = getModelInfo('openai/gpt-4o-mini'); // exact id, `provider/id`, or a dated snapshot
    const usd = estimateCost({ inputTokens: used, outputTokens: 500 }, 'my-llama'); // undefined if unpriced

    // 21 characters of English plus message overhead: a handful of tokens, not hundreds.
    expect(used).toBeGreaterThan(5);
    expect(used).toBeLessThan(20);
    expect(info).toMatchObject({ id: 'gpt-4o-mini', provider: 'openai' });
    expect(usd).toBeCloseTo((used * 0.2 + 500 * 0.6) / 1_000_000, 12);
  });

  it('prices a fine-tuned model once it is registered under the id used as the model', () => {
    expect(estimateCost({ inputTokens: 1000, outputTokens: 1000 }, 'ft:gpt-4o-mini:acme')).toBeUndefined();

    registerModel({
      id: 'ft:gpt-4o-mini:acme',
      provider: 'openai',
      contextWindow: 128000,
      inputCostPerMTok: 0.3,
      outputCostPerMTok: 1.2,
    });

    expect(estimateCost({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, 'ft:gpt-4o-mini:acme')).toBeCloseTo(1.5, 10);
  });
});
