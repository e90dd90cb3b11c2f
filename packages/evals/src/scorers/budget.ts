import { evalError } from '../errors.js';
import type { Scorer } from '../types.js';

/** The limits `budget()` holds a run to; only the ones given are checked. */
export interface BudgetLimits {
  /** The column and check name (default `budget`). */
  name?: string;
  /** Input plus output tokens of the whole run (sub-agents included). */
  maxTokens?: number;
  /** The run's cost in USD; a run whose cost is unknown (an unpriced model) does not pass. */
  maxCostUsd?: number;
  /** Model calls. */
  maxSteps?: number;
  /** Wall-clock time of the run. */
  maxDurationMs?: number;
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 4 });

/** 1 when the run stayed within every limit given, else 0; the reason lists each limit against the run. */
export function budget(limits: BudgetLimits): Scorer {
  const keys = ['maxTokens', 'maxCostUsd', 'maxSteps', 'maxDurationMs'] as const;
  const given = keys.filter((k) => limits?.[k] !== undefined);
  if (given.length === 0) throw evalError('LOUSHO_EVAL_INVALID', 'budget() needs at least one limit.', 'budget({ maxTokens: 4000, maxSteps: 5 })');
  for (const k of given) {
    const v = limits[k];
    if (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v)) throw evalError('LOUSHO_EVAL_INVALID', `budget(): ${k} must be a non-negative number, got ${String(v)}.`, `e.g. ${k}: 1000`);
  }
  return {
    kind: 'scorer',
    name: limits.name ?? 'budget',
    score({ output }) {
      const over: string[] = [];
      const within: string[] = [];
      const estimated = output.usage.estimated ? '~' : '';
      const judge = (ok: boolean, text: string) => (ok ? within : over).push(text);
      if (limits.maxTokens !== undefined) {
        const tokens = output.usage.inputTokens + output.usage.outputTokens;
        judge(tokens <= limits.maxTokens, `${estimated}${fmt(tokens)} tokens ${tokens <= limits.maxTokens ? '≤' : '>'} ${fmt(limits.maxTokens)}`);
      }
      if (limits.maxCostUsd !== undefined) {
        const cost = output.usage.costUsd;
        if (cost === undefined) over.push(`cost unknown (a model without a price: registerModel() gives it one) vs $${fmt(limits.maxCostUsd)}`);
        else judge(cost <= limits.maxCostUsd, `$${fmt(cost)} ${cost <= limits.maxCostUsd ? '≤' : '>'} $${fmt(limits.maxCostUsd)}`);
      }
      if (limits.maxSteps !== undefined) judge(output.steps <= limits.maxSteps, `${output.steps} steps ${output.steps <= limits.maxSteps ? '≤' : '>'} ${limits.maxSteps}`);
      if (limits.maxDurationMs !== undefined) {
        const ms = Math.round(output.durationMs);
        judge(output.durationMs <= limits.maxDurationMs, `${fmt(ms)} ms ${output.durationMs <= limits.maxDurationMs ? '≤' : '>'} ${fmt(limits.maxDurationMs)} ms`);
      }
      return over.length === 0 ? { score: 1, reason: `Within budget: ${within.join(', ')}.` } : { score: 0, reason: `Over budget: ${over.join(', ')}.` };
    },
  };
}
