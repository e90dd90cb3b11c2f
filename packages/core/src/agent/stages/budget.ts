import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { getModelInfo } from '../../models/registry.js';
import type { RunSnapshot } from '@lousho/protocol';
import type { RunLimits, RunLimitName, BudgetExceeded } from '@lousho/protocol';

const LIMIT_NAMES: readonly RunLimitName[] = ['maxTokens', 'maxCostUsd', 'maxToolCalls', 'maxDurationMs'];

/** Checks `limits` once, when the agent (or execution) is set up. */
export function checkLimits(limits: unknown): RunLimits | undefined {
  if (limits === undefined) return undefined;
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'limits must be an object such as { maxTokens: 50000, maxCostUsd: 0.5 }.', { hint: `Its fields are ${LIMIT_NAMES.join(', ')}.` });
  }
  for (const [key, value] of Object.entries(limits)) {
    if (!LIMIT_NAMES.includes(key as RunLimitName)) {
      throw new SDKError(ERROR_CODES.LOUSHO_UNKNOWN_OPTION, `limits has no field \`${key}\`.`, { hint: `Its fields are ${LIMIT_NAMES.join(', ')}.` });
    }
    const integer = key !== 'maxCostUsd';
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `limits.${key} must be a positive ${integer ? 'integer' : 'number'}, got ${String(value)}.`, { hint: 'Leave a limit out for no limit.' });
    }
  }
  return limits as RunLimits;
}

/** `maxCostUsd` cannot be watched with a model that has no price: said before the model is called. */
export function checkPriced(limits: RunLimits | undefined, model: string): void {
  if (limits?.maxCostUsd === undefined) return;
  const info = getModelInfo(model);
  if (info?.inputCostPerMTok === undefined || info.outputCostPerMTok === undefined) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `limits.maxCostUsd needs the price of the model '${model}', which the model registry does not have.`, {
      hint: `registerModel({ id: '${model}', provider, contextWindow, inputCostPerMTok, outputCostPerMTok }), or use maxTokens instead.`,
    });
  }
}

/** What a budget check reads of a run. */
export type BudgetedRun = Pick<RunSnapshot, 'usage' | 'toolCalls' | 'activeMs'>;

/** Time the run has spent running: earlier legs plus this one. */
export function activeMs(snapshot: Pick<RunSnapshot, 'activeMs'>, legStart: number): number {
  return (snapshot.activeMs ?? 0) + (Date.now() - legStart);
}

/**
 * The first budget the run has gone over, or undefined. `pendingToolCalls` are calls the model just
 * asked for: they count against `maxToolCalls` before they start.
 */
export function exceededBudget(limits: RunLimits | undefined, snapshot: BudgetedRun, legStart: number, pendingToolCalls = 0): BudgetExceeded | undefined {
  if (!limits) return undefined;
  const { usage } = snapshot;
  if (limits.maxTokens !== undefined && usage.totalTokens > limits.maxTokens) return { limit: 'maxTokens', max: limits.maxTokens, used: usage.totalTokens };
  if (limits.maxCostUsd !== undefined) {
    if (usage.costUsd === undefined && usage.modelCalls > 0) {
      const unpriced = Object.entries(usage.byModel).find(([, m]) => m.costUsd === undefined)?.[0] ?? 'a model';
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `limits.maxCostUsd cannot be checked: ${unpriced} has no known price, so the run's cost is unknown.`, {
        hint: 'Register prices for every model the run uses (registerModel), or use maxTokens instead.',
      });
    }
    if ((usage.costUsd ?? 0) > limits.maxCostUsd) return { limit: 'maxCostUsd', max: limits.maxCostUsd, used: usage.costUsd ?? 0 };
  }
  const calls = snapshot.toolCalls.length + pendingToolCalls;
  if (limits.maxToolCalls !== undefined && calls > limits.maxToolCalls) return { limit: 'maxToolCalls', max: limits.maxToolCalls, used: calls };
  if (limits.maxDurationMs !== undefined) {
    const elapsed = activeMs(snapshot, legStart);
    if (elapsed > limits.maxDurationMs) return { limit: 'maxDurationMs', max: limits.maxDurationMs, used: elapsed };
  }
  return undefined;
}
