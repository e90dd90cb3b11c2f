import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mockModel } from '@lousho/core/testing';
import { atLeast, budget, exactMatch, includes, llmJudge, LLM_JUDGE_SYSTEM_PROMPT, toolCallOrder } from '../src/index.js';
import { orderScore } from '../src/scorers/tool-call-order.js';
import { calls, ctxOf, usageOf } from './helpers.js';

describe('exactMatch', () => {
  it('compares text, trimmed by default, case-sensitive unless asked', async () => {
    const s = exactMatch();
    expect(await s.score(ctxOf({ text: '  Paris \n' }, 'Paris'))).toMatchObject({ score: 1 });
    expect(await s.score(ctxOf({ text: 'paris' }, 'Paris'))).toEqual({ score: 0, reason: 'Expected "Paris", got "paris".' });
    expect(await exactMatch({ ignoreCase: true }).score(ctxOf({ text: 'paris' }, 'Paris'))).toMatchObject({ score: 1 });
    expect(await exactMatch({ trim: false }).score(ctxOf({ text: 'Paris ' }, 'Paris'))).toMatchObject({ score: 0 });
  });

  it('compares a non-string expected with the structured output, whatever the key order', async () => {
    const s = exactMatch();
    expect(await s.score(ctxOf({ object: { b: [1, { y: 2, x: 1 }], a: 'z' } }, { a: 'z', b: [1, { x: 1, y: 2 }] }))).toMatchObject({ score: 1 });
    expect(await s.score(ctxOf({ object: { a: 1 } }, { a: 2 }))).toEqual({ score: 0, reason: 'Expected {"a":2}, got {"a":1}.' });
    // Without an output schema, the reply's JSON text is parsed.
    expect(await s.score(ctxOf({ text: '{"ok":true}' }, { ok: true }))).toMatchObject({ score: 1 });
    expect((await s.score(ctxOf({ text: 'not json' }, { ok: true }))).reason).toBe('Expected {"ok":true}, got the text "not json".');
    expect(s.requiresExpected).toBe(true);
  });
});

describe('includes', () => {
  it('scores the share of texts found and names the missing ones', async () => {
    const s = includes(['refund', 'order #123', 'sorry']);
    expect(await s.score(ctxOf({ text: 'Your refund for order #123 is on its way.' }))).toEqual({ score: 2 / 3, reason: 'The reply lacks "sorry" (2 of 3 found).' });
    expect(await includes('REFUND', { ignoreCase: true }).score(ctxOf({ text: 'a refund' }))).toMatchObject({ score: 1 });
    expect(await includes('x').score(ctxOf({ text: '' }))).toMatchObject({ score: 0 });
  });

  it('refuses an empty text or list', () => {
    expect(() => includes([])).toThrow(expect.objectContaining({ code: 'LOUSHO_EVAL_INVALID' }));
    expect(() => includes('')).toThrow(/non-empty/);
  });
});

describe('toolCallOrder: partial credit is the longest common subsequence over the longer list', () => {
  const score = async (want: string[], got: string[], allowExtra = false) => (await toolCallOrder(want, { allowExtra }).score(ctxOf({ toolCalls: calls(...got) }))).score;

  it('scores the documented examples', async () => {
    expect(await score(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(1);
    expect(await score(['a', 'b', 'c'], ['a', 'c'])).toBeCloseTo(2 / 3); // one missing
    expect(await score(['a', 'b', 'c'], ['a', 'x', 'b', 'c'])).toBe(3 / 4); // one extra
    expect(await score(['a', 'b', 'c'], ['a', 'x', 'b', 'c'], true)).toBe(1); // extra allowed
    expect(await score(['a', 'b'], ['b', 'a'])).toBe(1 / 2); // out of order
    expect(await score([], [])).toBe(1);
    expect(await score([], ['a'])).toBe(0);
    expect(await score(['a'], [])).toBe(0);
  });

  it('says what is missing or extra', async () => {
    const { reason } = await toolCallOrder(['lookup', 'refund']).score(ctxOf({ toolCalls: calls('lookup', 'email') }));
    expect(reason).toBe('1 of 2 in order (1 expected call missing or out of order, 1 extra): expected [lookup, refund], got [lookup, email].');
  });

  it('properties: in [0, 1]; 1 exactly when equal; allowExtra never scores lower; a call to a tool not expected never raises the score', () => {
    const name = fc.constantFrom('a', 'b', 'c', 'd');
    fc.assert(
      fc.property(fc.array(name, { maxLength: 8 }), fc.array(name, { maxLength: 8 }), fc.nat({ max: 8 }), (want, got, at) => {
        const strict = orderScore(want, got, false).score;
        const loose = orderScore(want, got, true).score;
        expect(strict).toBeGreaterThanOrEqual(0);
        expect(strict).toBeLessThanOrEqual(1);
        expect(strict === 1).toBe(want.join() === got.join());
        expect(loose).toBeGreaterThanOrEqual(strict);
        const withStranger = [...got.slice(0, at), 'z', ...got.slice(at)];
        expect(orderScore(want, withStranger, false).score).toBeLessThanOrEqual(strict);
        expect(orderScore(want, withStranger, true).score).toBe(loose);
      }),
    );
  });

  it('refuses what is not a list of names', () => {
    expect(() => toolCallOrder('a' as never)).toThrow(expect.objectContaining({ code: 'LOUSHO_EVAL_INVALID' }));
  });
});

describe('budget', () => {
  it('passes within every limit and lists each', async () => {
    const s = budget({ maxTokens: 1000, maxSteps: 3, maxDurationMs: 50, maxCostUsd: 0.01 });
    const r = await s.score(ctxOf({ usage: usageOf(600, 400, { costUsd: 0.004 }), steps: 3, durationMs: 50 }));
    expect(r).toEqual({ score: 1, reason: 'Within budget: 1,000 tokens ≤ 1,000, $0.004 ≤ $0.01, 3 steps ≤ 3, 50 ms ≤ 50 ms.' });
  });

  it('fails when any limit is passed, and when the cost is unknown; estimated tokens are marked', async () => {
    const s = budget({ maxTokens: 100, maxCostUsd: 1 });
    const r = await s.score(ctxOf({ usage: usageOf(90, 20, { estimated: true }) }));
    expect(r.score).toBe(0);
    expect(r.reason).toBe('Over budget: ~110 tokens > 100, cost unknown (a model without a price: registerModel() gives it one) vs $1.');
    expect((await budget({ maxSteps: 1 }).score(ctxOf({ steps: 2 }))).reason).toBe('Over budget: 2 steps > 1.');
  });

  it('needs at least one valid limit', () => {
    expect(() => budget({})).toThrow(expect.objectContaining({ code: 'LOUSHO_EVAL_INVALID' }));
    expect(() => budget({ maxTokens: -1 })).toThrow(/non-negative/);
    expect(() => budget({ maxSteps: Number.NaN })).toThrow(/non-negative/);
  });
});

describe('atLeast', () => {
  it('passes when the named scorer reached the value', async () => {
    const check = atLeast('judge', 0.7);
    expect(check.name).toBe('judge ≥ 0.7');
    expect(check.reads).toEqual(['judge']);
    expect(await check.check(ctxOf({}), { judge: { score: 0.7, reason: 'ok' } })).toEqual({ pass: true, reason: 'judge scored 0.70 ≥ 0.7.' });
    expect(await check.check(ctxOf({}), { judge: { score: 0.5, reason: 'vague' } })).toEqual({ pass: false, reason: 'judge scored 0.50 < 0.7: vague' });
    expect(() => atLeast('judge', 2)).toThrow(/from 0 to 1/);
  });
});

describe('llmJudge', () => {
  it('asks the judge with a fixed prompt at temperature 0 and returns its score, with its own usage', async () => {
    const judge = mockModel([{ text: '{"reason":"Names the order and offers a refund.","score":0.9}', usage: { promptTokens: 300, completionTokens: 20 } }], { model: 'judge-model' });
    const s = llmJudge({ model: judge, rubric: 'Offers a refund and names the order.' });
    const r = await s.score(ctxOf({ text: 'Refund for #123 sent.', toolCalls: calls('refund') }, 'A refund for #123', 'Refund #123 please'));
    expect(r).toMatchObject({ score: 0.9, reason: 'Names the order and offers a refund.' });
    expect(r.usage).toMatchObject({ inputTokens: 300, outputTokens: 20, estimated: false, modelCalls: 1 });
    const request = judge.lastCall!;
    expect(request.system).toBe(LLM_JUDGE_SYSTEM_PROMPT);
    expect(request.temperature).toBe(0);
    expect(request.model).toBe('judge-model');
    expect(request.responseFormat?.type).toBe('json');
    const prompt = String(request.messages[0]!.content);
    expect(prompt).toContain('<rubric>\nOffers a refund and names the order.\n</rubric>');
    expect(prompt).toContain('<input>\nRefund #123 please\n</input>');
    expect(prompt).toContain('<reference_answer>\nA refund for #123\n</reference_answer>');
    expect(prompt).toContain('<tool_calls>\nrefund({})\n</tool_calls>');
    expect(prompt).toContain('<reply>\nRefund for #123 sent.\n</reply>');
  });

  it('accepts a fenced JSON reply; anything else fails with LOUSHO_EVAL_JUDGE_INVALID', async () => {
    const fenced = llmJudge({ model: mockModel(['```json\n{"score": 0, "reason": "Off topic."}\n```']), rubric: 'r' });
    expect(await fenced.score(ctxOf({ text: 'x' }))).toMatchObject({ score: 0, reason: 'Off topic.' });
    for (const bad of ['I think 0.8', '{"score": 1.5, "reason": "x"}', '{"score": "high", "reason": "x"}', '{"score": 1}']) {
      const s = llmJudge({ model: mockModel([bad]), rubric: 'r' });
      await expect(s.score(ctxOf({ text: 'x' }))).rejects.toMatchObject({ code: 'LOUSHO_EVAL_JUDGE_INVALID' });
    }
  });

  it('needs a model and a rubric', () => {
    expect(() => llmJudge({ model: undefined as never, rubric: 'r' })).toThrow(expect.objectContaining({ code: 'LOUSHO_EVAL_INVALID' }));
    expect(() => llmJudge({ model: mockModel([]), rubric: ' ' })).toThrow(/rubric/);
  });

  it('a model string is resolved only when the judge is first used (a missing key fails that run, not the import)', async () => {
    const s = llmJudge({ model: 'openai/gpt-4o-mini', rubric: 'r' });
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      await expect(s.score(ctxOf({ text: 'x' }))).rejects.toThrow(/OPENAI_API_KEY/);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
