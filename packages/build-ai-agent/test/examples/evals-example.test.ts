import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runEval } from '@lousho/build-ai-agent';
import '@lousho/build-ai-agent/vitest';

const tsx = fileURLToPath(new URL('../../../core/node_modules/.bin/tsx', import.meta.url));
const bin = fileURLToPath(new URL('../../src/bin.ts', import.meta.url));

describe('docs/evals.md example (examples/evals/refunds.eval.ts)', () => {
  it('passes every scorer and check under runEval', async () => {
    const { default: refunds } = await import('../../examples/evals/refunds.eval.js');
    const report = await runEval(refunds);
    expect(report).toPass();
    expect(report.cases[0]!.scores).toMatchObject({ exactMatch: { score: 1 }, toolCallOrder: { score: 1 }, budget: { score: 1 }, llmJudge: { score: 0.9 } });
    expect(report.usage.judges.modelCalls).toBe(1);
  });

  it('runs with this package’s lousho bin', async () => {
    const cwd = fileURLToPath(new URL('../..', import.meta.url));
    const { stdout } = await promisify(execFile)(tsx, ['--conditions=@lousho/source', bin, 'eval', 'examples/evals'], { cwd });
    expect(stdout).toContain('PASS refunds (examples/evals/refunds.eval.ts): score 0.97 (threshold 0.8), 1/1 cases passed');
  }, 60_000);
});
