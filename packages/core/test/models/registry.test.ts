import { describe, expect, it } from 'vitest';
import { getModelInfo, listModels, ModelInfoError, registerModel, type ModelInfo } from '../../src/models/index.js';

describe('getModelInfo', () => {
  it('finds a model by its exact id', () => {
    expect(getModelInfo('gpt-4o-mini')).toMatchObject({
      id: 'gpt-4o-mini',
      provider: 'openai',
      contextWindow: 128_000,
      inputCostPerMTok: 0.15,
      outputCostPerMTok: 0.6,
    });
    expect(getModelInfo('gpt-4o')?.id).toBe('gpt-4o');
  });

  it('knows the common OpenAI, Anthropic and local models', () => {
    const priced = [
      'gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'o3', 'o4-mini', 'gpt-5', 'gpt-5-mini',
      'claude-sonnet-4', 'claude-opus-4', 'claude-3-5-haiku', 'claude-haiku-4-5',
    ];
    for (const id of priced) {
      const info = getModelInfo(id);
      expect(info, id).toBeDefined();
      expect(info!.contextWindow, id).toBeGreaterThan(0);
      expect(info!.inputCostPerMTok, id).toBeGreaterThan(0);
      // Output tokens cost more than input tokens for every model of this table.
      expect(info!.outputCostPerMTok!, id).toBeGreaterThan(info!.inputCostPerMTok!);
    }
    const local = getModelInfo('llama3.1');
    expect(local).toMatchObject({ provider: 'ollama' });
    expect(local?.inputCostPerMTok).toBeUndefined();
    expect(local?.outputCostPerMTok).toBeUndefined();
  });

  it('accepts `provider/id` when the provider matches', () => {
    expect(getModelInfo('openai/gpt-4o-mini')?.id).toBe('gpt-4o-mini');
    expect(getModelInfo('anthropic/claude-sonnet-4')?.id).toBe('claude-sonnet-4');
    expect(getModelInfo('ollama/llama3.1')?.id).toBe('llama3.1');
    expect(getModelInfo('anthropic/gpt-4o-mini')).toBeUndefined();
  });

  it('accepts OpenRouter ids', () => {
    expect(getModelInfo('openrouter/openai/gpt-4o-mini')?.id).toBe('gpt-4o-mini');
    expect(getModelInfo('anthropic/claude-3.5-haiku')?.id).toBe('claude-3-5-haiku');
    expect(getModelInfo('anthropic/claude-sonnet-4.5')?.id).toBe('claude-sonnet-4-5');
    expect(getModelInfo('meta-llama/llama-3.1-8b-instruct')).toMatchObject({ provider: 'openrouter' });
    expect(getModelInfo('meta-llama/llama-3.1-8b-instruct:free')?.id).toBe('meta-llama/llama-3.1-8b-instruct');
  });

  it('resolves dated snapshots and aliases to their model', () => {
    expect(getModelInfo('gpt-4o-mini-2024-07-18')?.id).toBe('gpt-4o-mini');
    expect(getModelInfo('gpt-4o-2024-08-06')?.id).toBe('gpt-4o');
    expect(getModelInfo('gpt-4.1-mini-2025-04-14')?.id).toBe('gpt-4.1-mini');
    expect(getModelInfo('gpt-3.5-turbo-0125')?.id).toBe('gpt-3.5-turbo');
    expect(getModelInfo('claude-sonnet-4-20250514')?.id).toBe('claude-sonnet-4');
    expect(getModelInfo('claude-3-5-haiku-20241022')?.id).toBe('claude-3-5-haiku');
    expect(getModelInfo('claude-3-5-haiku-latest')?.id).toBe('claude-3-5-haiku');
    expect(getModelInfo('claude-sonnet-4-0')?.id).toBe('claude-sonnet-4');
    expect(getModelInfo('openai/gpt-4o-mini-2024-07-18')?.id).toBe('gpt-4o-mini');
    expect(getModelInfo('llama3.1:8b')?.id).toBe('llama3.1');
  });

  it('returns undefined for unknown models instead of guessing', () => {
    for (const id of ['mock', 'demo', 'my-model', 'gpt-4o-mini-turbo', 'ft:gpt-4o-mini:acme', 'gpt', '', 'x'.repeat(10_000)]) {
      expect(getModelInfo(id), id).toBeUndefined();
    }
  });

  it('hands out entries that cannot be mutated', () => {
    const info = getModelInfo('gpt-4o')!;
    expect(() => {
      (info as { contextWindow: number }).contextWindow = 1;
    }).toThrow(TypeError);
    expect(getModelInfo('gpt-4o')?.contextWindow).toBe(128_000);
  });
});

describe('registerModel', () => {
  it('adds a model that getModelInfo and listModels then know', () => {
    registerModel({ id: 'acme-small', provider: 'acme', contextWindow: 8192 });

    expect(getModelInfo('acme-small')).toEqual({ id: 'acme-small', provider: 'acme', contextWindow: 8192 });
    expect(getModelInfo('acme/acme-small')?.id).toBe('acme-small');
    expect(getModelInfo('acme-small-2025-01-01')?.id).toBe('acme-small');
    expect(listModels().filter((m) => m.id === 'acme-small')).toHaveLength(1);
  });

  it('overrides a built-in, and the latest registration wins', () => {
    const original = getModelInfo('o3')!;
    try {
      registerModel({ id: 'o3', provider: 'openai', contextWindow: 200_000, inputCostPerMTok: 1, outputCostPerMTok: 4 });
      registerModel({ id: 'o3', provider: 'openai', contextWindow: 200_000, inputCostPerMTok: 3, outputCostPerMTok: 9 });

      expect(getModelInfo('o3')).toMatchObject({ inputCostPerMTok: 3, outputCostPerMTok: 9 });
      // Dated snapshots and `provider/id` follow the override.
      expect(getModelInfo('o3-2025-04-16')).toMatchObject({ inputCostPerMTok: 3 });
      expect(getModelInfo('openai/o3')).toMatchObject({ inputCostPerMTok: 3 });
      expect(listModels().filter((m) => m.id === 'o3')).toEqual([getModelInfo('o3')]);
    } finally {
      registerModel(original);
    }
    expect(getModelInfo('o3')).toEqual(original);
  });

  it('prefers an exact registration of a snapshot over its base model', () => {
    registerModel({ id: 'gpt-4o-mini-2099-01-01', provider: 'openai', contextWindow: 1000 });
    expect(getModelInfo('gpt-4o-mini-2099-01-01')?.contextWindow).toBe(1000);
    expect(getModelInfo('gpt-4o-mini')?.contextWindow).toBe(128_000);
  });

  it('keeps its own copy of what it was given', () => {
    const info: ModelInfo = { id: 'acme-copy', provider: 'acme', contextWindow: 4096, inputCostPerMTok: 1, outputCostPerMTok: 2 };
    registerModel(info);
    info.contextWindow = 1;
    info.inputCostPerMTok = 100;
    expect(getModelInfo('acme-copy')).toMatchObject({ contextWindow: 4096, inputCostPerMTok: 1 });
  });

  it('rejects unusable entries with a stable code and a hint', () => {
    const bad: unknown[] = [
      null,
      { provider: 'acme', contextWindow: 1 },
      { id: '', provider: 'acme', contextWindow: 1 },
      { id: 'x', contextWindow: 1 },
      { id: 'x', provider: 'acme', contextWindow: 0 },
      { id: 'x', provider: 'acme', contextWindow: Number.NaN },
      { id: 'x', provider: 'acme', contextWindow: 1, inputCostPerMTok: -1 },
      { id: 'x', provider: 'acme', contextWindow: 1, outputCostPerMTok: '0.5' },
      { id: 'x', provider: 'acme', contextWindow: 1, maxOutputTokens: -5 },
    ];
    for (const info of bad) {
      let caught: unknown;
      try {
        registerModel(info as ModelInfo);
      } catch (error) {
        caught = error;
      }
      expect(caught, JSON.stringify(info)).toBeInstanceOf(ModelInfoError);
      expect((caught as ModelInfoError).code).toBe('LOUSHO_MODEL_INFO_INVALID');
      expect((caught as ModelInfoError).hint.length).toBeGreaterThan(0);
    }
    expect(getModelInfo('x')).toBeUndefined();
  });
});
