/** Token counts of one model call, normalized from what the provider reported (or estimated). */
export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Present only when the provider reported it. */
  cachedInputTokens?: number;
  /** Present only when the provider reported it. */
  reasoningTokens?: number;
}

/** Usage of one model within a run (`usage.byModel[model]`): tokens, calls and, when the model is priced, cost. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  /** Undefined when the model has no known price. */
  costUsd?: number;
  calls: number;
}

/** The part of a run's usage spent by delegated child agents (`usage.delegated`); also counted in the run's totals. */
export interface DelegatedUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costUsd?: number;
  modelCalls: number;
  estimated: boolean;
  runs: number;
}

/** Running totals of a whole run (all model calls, delegated children included). */
export interface RunUsage extends TokenCounts {
  /** Sum of per-model costs; undefined as soon as any model used has unknown pricing. */
  costUsd?: number;
  /** True if some call reported no usage and was estimated. */
  estimated: boolean;
  modelCalls: number;
  byModel: Record<string, ModelUsage>;
  delegated?: DelegatedUsage;
  /** @deprecated alias of `inputTokens`. */
  promptTokens: number;
  /** @deprecated alias of `outputTokens`. */
  completionTokens: number;
}

/** Usage of one model call of a run. */
export interface StepUsage {
  /** 1-based index of the model call within the run. */
  step: number;
  model: string;
  usage: TokenCounts;
  estimated: boolean;
  costUsd?: number;
}
