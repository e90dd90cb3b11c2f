import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { getModelInfo, registerModel } from '../../src/models/index.js';
import { emptyUsage, formatUsage, UsageTracker, type RunUsage } from '../../src/usage/index.js';

const estimates = (input: number, output: number) => ({ estimateInput: () => input, estimateOutput: () => output });
const perMTok = (tokens: number, price: number) => (tokens * price) / 1_000_000;

describe('UsageTracker.record', () => {
  it('uses the reported counts and never calls the estimators then', () => {
    const tracker = new UsageTracker();
    const estimateInput = vi.fn(() => 999);
    const estimateOutput = vi.fn(() => 999);

    const step = tracker.record({ model: 'gpt-4o-mini', reported: { promptTokens: 1000, completionTokens: 200 }, estimateInput, estimateOutput });

    expect(step).toEqual({
      step: 1,
      model: 'gpt-4o-mini',
      usage: { inputTokens: 1000, outputTokens: 200, totalTokens: 1200 },
      estimated: false,
      costUsd: perMTok(1000, 0.15) + perMTok(200, 0.6),
    });
    expect(estimateInput).not.toHaveBeenCalled();
    expect(estimateOutput).not.toHaveBeenCalled();
    expect(tracker.snapshot().estimated).toBe(false);
  });

  it('estimates when the provider reported nothing, and says so', () => {
    const tracker = new UsageTracker();
    const step = tracker.record({ model: 'gpt-4o-mini', reported: undefined, ...estimates(300, 40) });

    expect(step.usage).toEqual({ inputTokens: 300, outputTokens: 40, totalTokens: 340 });
    expect(step.estimated).toBe(true);
    expect(step.costUsd).toBeCloseTo(perMTok(300, 0.15) + perMTok(40, 0.6), 15);
    const usage = tracker.snapshot();
    expect(usage.estimated).toBe(true);
    expect(formatUsage(usage).startsWith('~')).toBe(true);
  });

  it('estimates only the count that is missing', () => {
    const tracker = new UsageTracker();
    const estimateInput = vi.fn(() => 123);
    const step = tracker.record({ model: 'gpt-4o', reported: { completionTokens: 50 }, estimateInput, estimateOutput: () => 999 });
    expect(step.usage).toMatchObject({ inputTokens: 123, outputTokens: 50 });
    expect(step.estimated).toBe(true);
    expect(estimateInput).toHaveBeenCalledTimes(1);
  });

  it('treats broken reported counts as missing and broken estimates as zero', () => {
    const tracker = new UsageTracker();
    const step = tracker.record({
      model: 'gpt-4o',
      reported: { promptTokens: Number.NaN, completionTokens: -1 },
      estimateInput: () => 10.6,
      estimateOutput: () => Number.NaN,
    });
    expect(step.usage).toEqual({ inputTokens: 11, outputTokens: 0, totalTokens: 11 });
    expect(step.estimated).toBe(true);
  });

  it('carries cached and reasoning tokens only when they were reported', () => {
    const tracker = new UsageTracker();
    const plain = tracker.record({ model: 'o4-mini', reported: { promptTokens: 10, completionTokens: 5 }, ...estimates(0, 0) });
    expect('cachedInputTokens' in plain.usage).toBe(false);
    expect('reasoningTokens' in plain.usage).toBe(false);
    expect('cachedInputTokens' in tracker.snapshot()).toBe(false);
    expect('reasoningTokens' in tracker.snapshot()).toBe(false);

    const rich = tracker.record({
      model: 'o4-mini',
      reported: { promptTokens: 1_000_000, completionTokens: 100, cachedInputTokens: 400_000, reasoningTokens: 60 },
      ...estimates(0, 0),
    });
    tracker.record({ model: 'o4-mini', reported: { promptTokens: 10, completionTokens: 5, cachedInputTokens: 5 }, ...estimates(0, 0) });
    expect(rich.usage).toMatchObject({ cachedInputTokens: 400_000, reasoningTokens: 60 });
    // Cache reads are cheaper: o4-mini $1.10 in, $0.275 cached, $4.40 out.
    expect(rich.costUsd).toBeCloseTo(perMTok(600_000, 1.1) + perMTok(400_000, 0.275) + perMTok(100, 4.4), 12);
    expect(tracker.snapshot()).toMatchObject({ cachedInputTokens: 400_005, reasoningTokens: 60 });
  });

  it('numbers the steps from 1', () => {
    const tracker = new UsageTracker();
    const steps = [0, 1, 2].map(() => tracker.record({ model: 'gpt-4o', ...estimates(1, 1) }).step);
    expect(steps).toEqual([1, 2, 3]);
  });
});

describe('UsageTracker costs', () => {
  it('sums the cost per model and in total', () => {
    const tracker = new UsageTracker();
    tracker.record({ model: 'gpt-4o-mini', reported: { promptTokens: 1000, completionTokens: 100 }, ...estimates(0, 0) });
    tracker.record({ model: 'gpt-4o-mini', reported: { promptTokens: 2000, completionTokens: 300 }, ...estimates(0, 0) });
    tracker.record({ model: 'claude-sonnet-4-20250514', reported: { promptTokens: 500, completionTokens: 50 }, ...estimates(0, 0) });

    const usage = tracker.snapshot();
    const mini = perMTok(3000, 0.15) + perMTok(400, 0.6);
    const sonnet = perMTok(500, 3) + perMTok(50, 15);
    expect(usage.byModel).toEqual({
      'gpt-4o-mini': { inputTokens: 3000, outputTokens: 400, calls: 2, costUsd: expect.closeTo(mini, 15) },
      'claude-sonnet-4-20250514': { inputTokens: 500, outputTokens: 50, calls: 1, costUsd: expect.closeTo(sonnet, 15) },
    });
    expect(usage.costUsd).toBeCloseTo(mini + sonnet, 15);
    expect(usage).toMatchObject({ inputTokens: 3500, outputTokens: 450, totalTokens: 3950, modelCalls: 3 });
  });

  it('leaves the total cost undefined as soon as one model used is unpriced', () => {
    const tracker = new UsageTracker();
    tracker.record({ model: 'gpt-4o-mini', reported: { promptTokens: 1000, completionTokens: 100 }, ...estimates(0, 0) });
    expect(tracker.snapshot().costUsd).toBeGreaterThan(0);

    const local = tracker.record({ model: 'llama3.1', reported: { promptTokens: 1000, completionTokens: 100 }, ...estimates(0, 0) });
    expect('costUsd' in local).toBe(false);
    const usage = tracker.snapshot();
    expect(usage.costUsd).toBeUndefined();
    expect('costUsd' in usage).toBe(false);
    // byModel shows which models are priced.
    expect(usage.byModel['gpt-4o-mini']?.costUsd).toBeGreaterThan(0);
    expect('costUsd' in usage.byModel['llama3.1']!).toBe(false);
    expect(formatUsage(usage)).toBe('2,000 in / 200 out tokens (2 model calls)');
  });

  it('keeps a cost unknown even if the model gets a price later in the run', () => {
    const tracker = new UsageTracker();
    tracker.record({ model: 'late-priced', reported: { promptTokens: 10, completionTokens: 10 }, ...estimates(0, 0) });
    registerModel({ id: 'late-priced', provider: 'acme', contextWindow: 1000, inputCostPerMTok: 1, outputCostPerMTok: 1 });
    const priced = tracker.record({ model: 'late-priced', reported: { promptTokens: 10, completionTokens: 10 }, ...estimates(0, 0) });
    expect(priced.costUsd).toBeGreaterThan(0);
    expect(tracker.snapshot().costUsd).toBeUndefined();
    expect(tracker.snapshot().byModel['late-priced']?.costUsd).toBeUndefined();
  });

  it('has no cost for the mock and demo models', () => {
    const tracker = new UsageTracker();
    tracker.record({ model: 'mock', ...estimates(10, 10) });
    expect(tracker.snapshot().costUsd).toBeUndefined();
  });

  it('uses the registry at the time of the call', () => {
    const original = getModelInfo('gpt-4.1')!;
    const tracker = new UsageTracker();
    try {
      registerModel({ ...original, inputCostPerMTok: 100, outputCostPerMTok: 100 });
      expect(tracker.record({ model: 'gpt-4.1', reported: { promptTokens: 10_000, completionTokens: 0 }, ...estimates(0, 0) }).costUsd).toBeCloseTo(1, 12);
    } finally {
      registerModel(original);
    }
  });
});

describe('UsageTracker.snapshot', () => {
  it('returns a fresh frozen object each time, untouched by later calls', () => {
    const tracker = new UsageTracker();
    tracker.record({ model: 'gpt-4o', reported: { promptTokens: 10, completionTokens: 1 }, ...estimates(0, 0) });
    const first = tracker.snapshot();
    const again = tracker.snapshot();
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.byModel)).toBe(true);
    expect(Object.isFrozen(first.byModel['gpt-4o'])).toBe(true);

    tracker.record({ model: 'gpt-4o', reported: { promptTokens: 5, completionTokens: 5 }, ...estimates(0, 0) });
    expect(first.inputTokens).toBe(10);
    expect(first.byModel['gpt-4o']?.calls).toBe(1);
    expect(tracker.snapshot().inputTokens).toBe(15);
  });

  it('is plain JSON and carries the deprecated aliases', () => {
    const tracker = new UsageTracker();
    tracker.record({ model: 'gpt-4o', reported: { promptTokens: 10, completionTokens: 3, reasoningTokens: 1 }, ...estimates(0, 0) });
    const usage = tracker.snapshot();
    expect(JSON.parse(JSON.stringify(usage))).toEqual(usage);
    expect(usage.promptTokens).toBe(usage.inputTokens);
    expect(usage.completionTokens).toBe(usage.outputTokens);
  });

  it('starts empty with a known cost of zero', () => {
    const usage = emptyUsage();
    expect(usage).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      costUsd: 0,
      estimated: false,
      modelCalls: 0,
      byModel: {},
      promptTokens: 0,
      completionTokens: 0,
    });
    expect(new UsageTracker().snapshot()).toEqual(usage);
  });

  it('keeps model ids that look like object keys as plain entries', () => {
    const tracker = new UsageTracker();
    tracker.record({ model: '__proto__', ...estimates(1, 1) });
    const usage = tracker.snapshot();
    expect(Object.keys(usage.byModel)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(usage.byModel)).toBe(Object.prototype);
  });
});

describe('UsageTracker.addDelegated', () => {
  function childRun(): RunUsage {
    const child = new UsageTracker();
    child.record({ model: 'gpt-4o-mini', reported: { promptTokens: 400, completionTokens: 100 }, ...estimates(0, 0) });
    child.record({ model: 'claude-haiku-4-5', reported: { promptTokens: 200, completionTokens: 20, cachedInputTokens: 50 }, ...estimates(0, 0) });
    return child.snapshot();
  }

  it('adds the child to the totals and byModel, and shows it on its own', () => {
    const parent = new UsageTracker();
    parent.record({ model: 'gpt-4o-mini', reported: { promptTokens: 1000, completionTokens: 10 }, ...estimates(0, 0) });
    const child = childRun();
    parent.addDelegated(child);

    const usage = parent.snapshot();
    expect(usage).toMatchObject({ inputTokens: 1600, outputTokens: 130, totalTokens: 1730, modelCalls: 3, cachedInputTokens: 50 });
    expect(usage.byModel['gpt-4o-mini']).toMatchObject({ inputTokens: 1400, outputTokens: 110, calls: 2 });
    expect(usage.byModel['claude-haiku-4-5']).toMatchObject({ inputTokens: 200, outputTokens: 20, calls: 1 });
    expect(usage.delegated).toEqual({
      inputTokens: 600,
      outputTokens: 120,
      totalTokens: 720,
      costUsd: child.costUsd,
      modelCalls: 2,
      estimated: false,
      runs: 1,
    });
    const own = perMTok(1000, 0.15) + perMTok(10, 0.6);
    expect(usage.costUsd).toBeCloseTo(own + child.costUsd!, 15);
    // A later step of the parent is its step 2, whatever the child did.
    expect(parent.record({ model: 'gpt-4o-mini', ...estimates(1, 1) }).step).toBe(2);
  });

  it('counts every delegated run, nested ones included', () => {
    const child = new UsageTracker();
    child.record({ model: 'gpt-4o', ...estimates(10, 10) });
    child.addDelegated(childRun());
    child.addDelegated(childRun());
    const parent = new UsageTracker();
    parent.addDelegated(child.snapshot());
    parent.addDelegated(childRun());

    const { delegated } = parent.snapshot();
    expect(delegated).toMatchObject({ runs: 4, modelCalls: 1 + 2 + 2 + 2, estimated: true });
    expect(parent.snapshot().estimated).toBe(true);
  });

  it("makes the parent's cost unknown when the child used an unpriced model", () => {
    const child = new UsageTracker();
    child.record({ model: 'llama3.1', ...estimates(10, 10) });
    const parent = new UsageTracker();
    parent.record({ model: 'gpt-4o', reported: { promptTokens: 10, completionTokens: 10 }, ...estimates(0, 0) });
    parent.addDelegated(child.snapshot());

    const usage = parent.snapshot();
    expect(usage.costUsd).toBeUndefined();
    expect(usage.delegated?.costUsd).toBeUndefined();
    expect(usage.byModel['gpt-4o']?.costUsd).toBeGreaterThan(0);
  });

  it('accepts an old-format child usage with unknown cost', () => {
    const parent = new UsageTracker();
    parent.addDelegated({ promptTokens: 70, completionTokens: 30, totalTokens: 100 });
    const usage = parent.snapshot();
    expect(usage).toMatchObject({ inputTokens: 70, outputTokens: 30, totalTokens: 100 });
    expect(usage.costUsd).toBeUndefined();
    expect(usage.delegated).toMatchObject({ inputTokens: 70, runs: 1 });
    expect(usage.delegated?.costUsd).toBeUndefined();
  });

  it('keeps a total cost given without a per-model split', () => {
    const parent = new UsageTracker();
    parent.addDelegated({ inputTokens: 10, outputTokens: 10, costUsd: 0.5, modelCalls: 1 });
    expect(parent.snapshot().costUsd).toBeCloseTo(0.5, 15);
    expect(parent.snapshot().delegated?.costUsd).toBeCloseTo(0.5, 15);
  });
});

describe('UsageTracker resume', () => {
  it('continues from saved totals instead of restarting at zero', () => {
    const first = new UsageTracker();
    first.record({ model: 'gpt-4o-mini', reported: { promptTokens: 1000, completionTokens: 100 }, ...estimates(0, 0) });
    first.record({ model: 'gpt-4o-mini', reported: { promptTokens: 1100, completionTokens: 50 }, ...estimates(0, 0) });
    const saved = JSON.parse(JSON.stringify(first.snapshot())) as RunUsage;

    const resumed = new UsageTracker(saved);
    expect(resumed.snapshot()).toEqual(saved);
    const step = resumed.record({ model: 'gpt-4o-mini', reported: { promptTokens: 1200, completionTokens: 10 }, ...estimates(0, 0) });
    expect(step.step).toBe(3);
    expect(resumed.snapshot()).toMatchObject({ inputTokens: 3300, outputTokens: 160, modelCalls: 3 });
    expect(resumed.snapshot().byModel['gpt-4o-mini']?.calls).toBe(3);
  });

  it('gives the same totals whether or not the run was paused and resumed', () => {
    const call = fc.record({
      model: fc.constantFrom('gpt-4o-mini', 'claude-sonnet-4', 'llama3.1', 'gpt-5'),
      reported: fc.option(
        fc.record(
          {
            promptTokens: fc.nat(100_000),
            completionTokens: fc.nat(10_000),
            cachedInputTokens: fc.nat(50_000),
            reasoningTokens: fc.nat(5_000),
          },
          { requiredKeys: [] },
        ),
        { nil: undefined },
      ),
      estimate: fc.tuple(fc.nat(5_000), fc.nat(5_000)),
      delegate: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 12 }), fc.nat(12), (calls, pauseAt) => {
        const apply = (tracker: UsageTracker, c: (typeof calls)[number]) => {
          if (c.delegate) {
            const child = new UsageTracker();
            child.record({ model: c.model, reported: c.reported, ...estimates(...c.estimate) });
            tracker.addDelegated(child.snapshot());
          } else {
            tracker.record({ model: c.model, reported: c.reported, ...estimates(...c.estimate) });
          }
        };
        const straight = new UsageTracker();
        calls.forEach((c) => apply(straight, c));

        let paused = new UsageTracker();
        calls.forEach((c, i) => {
          if (i === pauseAt) paused = new UsageTracker(JSON.parse(JSON.stringify(paused.snapshot())) as RunUsage);
          apply(paused, c);
        });

        expect(paused.snapshot()).toEqual(straight.snapshot());
      }),
    );
  });

  it('starts old checkpoints from their token counts with an unknown cost', () => {
    const resumed = new UsageTracker({ promptTokens: 1200, completionTokens: 300, totalTokens: 1500 });
    resumed.record({ model: 'gpt-4o-mini', reported: { promptTokens: 100, completionTokens: 10 }, ...estimates(0, 0) });

    const usage = resumed.snapshot();
    expect(usage).toMatchObject({ inputTokens: 1300, outputTokens: 310, totalTokens: 1610, promptTokens: 1300, completionTokens: 310 });
    expect(usage.costUsd).toBeUndefined();
    expect(usage.byModel['gpt-4o-mini']?.costUsd).toBeGreaterThan(0);
    expect(formatUsage(usage)).toBe('1,300 in / 310 out tokens (1 model call)');
  });

  it('tolerates saved usage with broken fields', () => {
    const broken = { inputTokens: 'a lot', outputTokens: -4, byModel: { x: null, y: { calls: 2 } }, estimated: 'yes' } as unknown as RunUsage;
    const usage = new UsageTracker(broken).snapshot();
    expect(usage).toMatchObject({ inputTokens: 0, outputTokens: 0, estimated: false, modelCalls: 2 });
    expect(Object.keys(usage.byModel)).toEqual(['y']);
  });
});
