import { emptyUsage, type RunUsage } from '@lousho/core';
import type { EvalOutput, ScoreContext } from '../src/index.js';

/** A run's output as scorers see it, with only what a test sets. */
export function outputOf(partial: Partial<EvalOutput> = {}): EvalOutput {
  return { text: '', toolCalls: [], usage: emptyUsage(), steps: 1, finishReason: 'stop', durationMs: 10, result: undefined, ...partial };
}

export function ctxOf(output: Partial<EvalOutput>, expected?: unknown, input: unknown = 'hi'): ScoreContext {
  return { case: { input, expected }, input, expected, metadata: {}, output: outputOf(output), signal: new AbortController().signal };
}

export function usageOf(inputTokens: number, outputTokens: number, extra: Partial<RunUsage> = {}): RunUsage {
  const { costUsd: _none, ...empty } = emptyUsage();
  return { ...empty, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, promptTokens: inputTokens, completionTokens: outputTokens, modelCalls: 1, ...extra };
}

export const calls = (...names: string[]) => names.map((name) => ({ name, args: {}, result: null, isError: false }));
