import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { atLeast, budget, defineEval, exactMatch, includes, llmJudge, runEval, toolCallOrder, toolCallsInCallOrder, type EvalProgressEvent, type Scorer } from '../src/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An agent that echoes its input (each call answers the last user message). */
function echoAgent(delayMs = 0) {
  return createAgent({
    provider: mockModel([(req) => ({ text: `echo: ${String(req.messages.at(-1)?.content)}`, usage: { promptTokens: 10, completionTokens: 3 }, delayMs })], { whenExhausted: 'repeat-last' }),
  });
}

describe('defineEval checks the eval up front', () => {
  const agent = echoAgent();
  const cases = [{ input: 'a', expected: 'echo: a' }];
  it.each([
    ['no target', { name: 'x', cases, scorers: [exactMatch()] }, /needs an `agent` or a `flow`/],
    ['two targets', { name: 'x', agent, flow: { name: 'f', graph: {} }, cases, scorers: [exactMatch()] }, /not both/],
    ['no cases', { name: 'x', agent, cases: [], scorers: [exactMatch()] }, /at least one case/],
    ['no scorer or check', { name: 'x', agent, cases }, /at least one scorer or check/],
    ['a case without expected for exactMatch', { name: 'x', agent, cases: [{ input: 'b' }], scorers: [exactMatch()] }, /case 1 \(b\) has no `expected`, which 'exactMatch'/],
    ['duplicate names', { name: 'x', agent, cases, scorers: [includes('a'), includes('b')] }, /two scorers or checks are named 'includes'/],
    ['a check reading a missing scorer', { name: 'x', agent, cases, scorers: [exactMatch()], checks: [atLeast('llmJudge', 0.5)] }, /reads the score of 'llmJudge', which is not one of its scorers \(exactMatch\)/],
    ['a threshold above 1', { name: 'x', agent, cases, scorers: [exactMatch()], threshold: 80 }, /threshold must be a number from 0 to 1/],
    ['repeat 0', { name: 'x', agent, cases, scorers: [exactMatch()], repeat: 0 }, /repeat must be a positive integer/],
    ['something that is not a scorer', { name: 'x', agent, cases, scorers: [() => 1] }, /scorers\[0\] is not a scorer/],
  ])('%s', (_label, definition, message) => {
    expect(() => defineEval(definition as never)).toThrow(message);
    expect(() => defineEval(definition as never)).toThrow(expect.objectContaining({ code: 'LOUSHO_EVAL_INVALID' }));
  });
});

describe('runEval', () => {
  it('scores every case, averages scorers into case and eval scores, and gates on checks', async () => {
    const ev = defineEval({
      name: 'echo',
      agent: echoAgent(),
      cases: [
        { name: 'right', input: 'a', expected: 'echo: a' },
        { input: 'b', expected: 'something else' },
      ],
      scorers: [exactMatch(), includes('echo')],
      checks: [includes('b', { name: 'mentions b' })],
    });
    const report = await runEval(ev);
    expect(report.cases.map((c) => [c.name, c.score, c.passed])).toEqual([
      ['right', 1, false],
      ['b', 0.5, true],
    ]);
    expect(report.score).toBe(0.75);
    expect(report.passed).toBe(false);
    expect(report.cases[0]!.checks['mentions b']).toEqual({ passed: 0, runs: 1, reason: 'The reply lacks "b" (0 of 1 found).' });
    expect(report.cases[1]!.scores.exactMatch).toEqual({ score: 0, reason: 'Expected "something else", got "echo: b".', runs: [0] });
    expect(report.usage.runs).toMatchObject({ inputTokens: 20, outputTokens: 6, modelCalls: 2, estimated: false });
    expect(report.usage.judges).toMatchObject({ inputTokens: 0, modelCalls: 0 });
  });

  it('the threshold applies to the mean score', async () => {
    const make = (threshold: number) => defineEval({ name: 't', agent: echoAgent(), cases: [{ input: 'a', expected: 'echo: a' }, { input: 'b', expected: 'nope' }], scorers: [exactMatch()], threshold });
    expect((await runEval(make(0.5))).passed).toBe(true);
    expect((await runEval(make(0.6))).passed).toBe(false);
  });

  it('repeat averages scores over runs; minPassRate decides how many runs must pass the checks', async () => {
    let call = 0;
    // Flaky: every other answer is wrong.
    const agent = createAgent({ provider: mockModel([() => (call++ % 2 === 0 ? 'yes' : 'no')], { whenExhausted: 'repeat-last' }) });
    const strict = defineEval({ name: 'flaky', agent, cases: [{ input: 'q', expected: 'yes' }], scorers: [exactMatch()], checks: [includes('yes', { name: 'says yes' })], repeat: 4, concurrency: 1 });
    const report = await runEval(strict);
    expect(report.cases[0]!.scores.exactMatch).toMatchObject({ score: 0.5, runs: [1, 0, 1, 0] });
    expect(report.cases[0]!.checks['says yes']).toMatchObject({ passed: 2, runs: 4 });
    expect(report.cases[0]!.passRate).toBe(0.5);
    expect(report.passed).toBe(false);
    call = 0;
    expect((await runEval(defineEval({ ...strict, minPassRate: 0.5 }))).passed).toBe(true);
    // The repeat given to runEval wins over the eval's.
    call = 0;
    expect((await runEval(strict, { repeat: 1 })).cases[0]!.runs).toHaveLength(1);
  });

  it('runs at most `concurrency` cases at once and reports progress', async () => {
    let inFlight = 0;
    let max = 0;
    const tracked = {
      name: 'tracked',
      async send(input: unknown) {
        inFlight++;
        max = Math.max(max, inFlight);
        await sleep(15);
        inFlight--;
        return echoAgent().send(input as string);
      },
    };
    const ev = defineEval({ name: 'pool', agent: tracked, cases: Array.from({ length: 6 }, (_, i) => ({ input: `c${i}` })), checks: [includes('echo')] });
    const events: EvalProgressEvent[] = [];
    const report = await runEval(ev, { concurrency: 2, onProgress: (e) => events.push(e) });
    expect(max).toBe(2);
    expect(report.passed).toBe(true);
    expect(events[0]).toEqual({ type: 'eval.start', eval: 'pool', runs: 6 });
    expect(events.filter((e) => e.type === 'run.done').map((e) => (e as { done: number }).done)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(events.at(-1)).toMatchObject({ type: 'eval.done', report: { name: 'pool' } });
  });

  it('a run that fails, times out, or whose scorer throws fails that case with the error code; the others go on', async () => {
    const failing = createAgent({ provider: mockModel([(req) => (String(req.messages.at(-1)?.content) === 'boom' ? new Error('model down') : 'fine')], { whenExhausted: 'repeat-last' }) });
    const throwing: Scorer = { kind: 'scorer', name: 'fragile', score: ({ input }) => {
      if (input === 'bad-scorer') throw new Error('scorer bug');
      return { score: 1, reason: 'ok' };
    } };
    const outOfRange: Scorer = { kind: 'scorer', name: 'sloppy', score: ({ input }) => (input === 'bad-score' ? { score: 7, reason: 'x' } : { score: 1, reason: 'ok' }) };
    const report = await runEval(defineEval({ name: 'errors', agent: failing, cases: [{ input: 'boom' }, { input: 'bad-scorer' }, { input: 'bad-score' }, { input: 'ok' }], scorers: [throwing, outOfRange] }));
    const [boom, badScorer, badScore, ok] = report.cases;
    expect(boom!.runs[0]!.error).toEqual({ code: 'Error', message: 'model down' });
    expect(boom!.passed).toBe(false);
    expect(boom!.scores.fragile!.score).toBe(0);
    expect(badScorer!.runs[0]!.error).toEqual({ code: 'Error', message: 'scorer bug' });
    expect(badScore!.runs[0]!.error!.code).toBe('LOUSHO_EVAL_SCORE_INVALID');
    expect(ok!.passed).toBe(true);
    expect(report.passed).toBe(false);

    const slow = defineEval({ name: 'slow', agent: echoAgent(200), cases: [{ input: 'a' }], checks: [includes('echo')], timeoutMs: 30 });
    const timedOut = await runEval(slow);
    expect(timedOut.cases[0]!.runs[0]!.error).toEqual({ code: 'LOUSHO_EVAL_TIMEOUT', message: 'The run took longer than 30 ms and was stopped.' });
  });

  it('stopping the eval rejects', async () => {
    const controller = new AbortController();
    const pending = runEval(defineEval({ name: 's', agent: echoAgent(50), cases: [{ input: 'a' }, { input: 'b' }], checks: [includes('echo')], concurrency: 1 }), { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toThrow();
  });

  it('sees parallel tool calls in the model’s call order, and reports judge usage apart from the runs', async () => {
    const slow = defineTool({ name: 'slow', description: 's', input: z.object({}), execute: async () => (await sleep(20), 'slow') });
    const fast = defineTool({ name: 'fast', description: 'f', input: z.object({}), execute: async () => 'fast' });
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'slow' }, { name: 'fast' }], usage: { promptTokens: 50, completionTokens: 10 } }, { text: 'done', usage: { promptTokens: 60, completionTokens: 2 } }]),
      tools: [slow, fast],
    });
    const judge = mockModel([{ text: '{"reason":"fine","score":0.8}', usage: { promptTokens: 400, completionTokens: 12 } }]);
    const report = await runEval(
      defineEval({ name: 'tools', agent, cases: [{ input: 'go' }], scorers: [toolCallOrder(['slow', 'fast']), llmJudge({ model: judge, rubric: 'Done.' }), budget({ maxSteps: 2 })], checks: [atLeast('llmJudge', 0.7)] }),
    );
    const c = report.cases[0]!;
    expect(c.runs[0]!.output!.toolCalls).toEqual(['slow', 'fast']);
    expect(c.scores.toolCallOrder!.score).toBe(1);
    expect(c.checks['llmJudge ≥ 0.7']!.passed).toBe(1);
    expect(report.usage.runs).toMatchObject({ inputTokens: 110, outputTokens: 12, modelCalls: 2 });
    expect(report.usage.judges).toMatchObject({ inputTokens: 400, outputTokens: 12, modelCalls: 1 });
    expect(report.passed).toBe(true);
  });

  it('gives each call its own arguments and result when the provider uses one id in every step', async () => {
    const double = defineTool({ name: 'double', description: 'd', input: z.object({ n: z.number() }), execute: async ({ n }) => n * 2 });
    const agent = createAgent({
      provider: mockModel([
        { toolCalls: [{ id: 'call_0', name: 'double', args: { n: 1 } }] },
        { toolCalls: [{ id: 'call_0', name: 'double', args: { n: 5 } }] },
        { text: 'done' },
      ]),
      tools: [double],
    });
    expect(toolCallsInCallOrder(await agent.send('go')).map((c) => [c.args, c.result])).toEqual([
      [{ n: 1 }, 2],
      [{ n: 5 }, 10],
    ]);
  });
});
