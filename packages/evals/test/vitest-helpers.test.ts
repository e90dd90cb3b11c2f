import { describe, expect, it } from 'vitest';
import { createAgent } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { defineEval, exactMatch, includes } from '../src/index.js';
import { describeEval, runEval } from '../src/vitest.js';

const agent = createAgent({ provider: mockModel([(req) => `echo: ${String(req.messages.at(-1)?.content)}`], { whenExhausted: 'repeat-last' }) });

// describeEval: one suite, a test per case, and one for the threshold (this file's own tests).
describeEval(
  defineEval({
    name: 'echo eval under vitest',
    agent,
    cases: [{ name: 'says hello', input: 'hello', expected: 'echo: hello' }, { input: 'bye', expected: 'echo: bye' }],
    scorers: [exactMatch()],
    checks: [includes('echo')],
    threshold: 1,
  }),
);

describe('expect(report).toPass()', () => {
  it('passes for a passing eval', async () => {
    const report = await runEval(defineEval({ name: 'ok', agent, cases: [{ input: 'x' }], checks: [includes('echo: x')] }));
    expect(report).toPass();
    expect([report, report]).toPass();
  });

  it('fails with the failing cases, their checks and reasons, and the threshold', async () => {
    const report = await runEval(
      defineEval({ name: 'refunds', agent, cases: [{ name: 'polite', input: 'x', expected: 'nope' }], scorers: [exactMatch()], checks: [includes('sorry', { name: 'apologizes' })], threshold: 0.5 }),
    );
    let message = '';
    try {
      expect(report).toPass();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("eval 'refunds' failed:");
    expect(message).toContain(`case 'polite' (passed 0/1 runs, needs 100%): apologizes passed 0/1: The reply lacks "sorry" (0 of 1 found).`);
    expect(message).toContain('mean score 0.00 is below the threshold 0.5');
    expect(report).not.toPass();
  });

  it('refuses what is not an eval report', () => {
    expect(() => expect({ nope: true }).toPass()).toThrow(/what runEval\(\) resolves with/);
  });
});
