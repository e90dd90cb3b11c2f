/** Budgets of one run (`limits`): the run ends with `finishReason: 'budget-exceeded'` when one trips. */
export interface RunLimits {
  /** Input + output tokens of every model call of the run, delegated children included. */
  maxTokens?: number;
  /** Cost in USD (needs priced models: see `registerModel`). */
  maxCostUsd?: number;
  /** Tool calls of the run. A turn whose calls would go over it starts none of them. */
  maxToolCalls?: number;
  /** Time the run spends running (not waiting for a person), checked between steps. */
  maxDurationMs?: number;
}

/** The name of one of a run's limits (`maxSteps`, `maxTokens`, ...). */
export type RunLimitName = keyof RunLimits;

/** Which budget tripped (`result.budget`): its name, its value, and what the run had used. */
export interface BudgetExceeded {
  limit: RunLimitName;
  max: number;
  used: number;
}
