// Evals as vitest tests: describeEval(eval) and expect(await runEval(eval)).toPass(). Needs vitest.
export * from '@lousho/evals/vitest';
