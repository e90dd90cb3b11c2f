import type { RunUsage } from '@lousho/core';
import type { UsageTotals } from './types.js';

export function emptyTotals(): UsageTotals {
  return { inputTokens: 0, outputTokens: 0, costUsd: 0, estimated: false, modelCalls: 0 };
}

/** Adds a run's usage to the totals; the cost becomes unknown once any part of it is. */
export function addUsage(totals: UsageTotals, usage: Pick<RunUsage, 'inputTokens' | 'outputTokens' | 'costUsd' | 'estimated' | 'modelCalls'> | UsageTotals): UsageTotals {
  const cost = totals.costUsd === undefined || usage.costUsd === undefined ? undefined : totals.costUsd + usage.costUsd;
  return {
    inputTokens: totals.inputTokens + usage.inputTokens,
    outputTokens: totals.outputTokens + usage.outputTokens,
    ...(cost !== undefined ? { costUsd: cost } : {}),
    estimated: totals.estimated || usage.estimated,
    modelCalls: totals.modelCalls + usage.modelCalls,
  };
}

/** Totals of nothing: no cost rather than an unknown one. */
export function totalsOf(usages: readonly UsageTotals[]): UsageTotals {
  return usages.reduce(addUsage, emptyTotals());
}
