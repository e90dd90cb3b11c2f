import { estimateCost } from '../models/cost.js';
import type { ProviderUsage } from '@lousho/protocol';
import type { DelegatedUsage, ModelUsage, RunUsage, StepUsage, TokenCounts } from '@lousho/protocol';

/** What the agent loop knows about one model call when it records it. */
export interface RecordStepInput {
  /** The model id the call used (the `byModel` key and the price lookup). */
  model: string;
  /** What the provider reported; unset when it reported nothing. */
  reported?: ProviderUsage | undefined;
  /** Called only when the provider did not report input tokens. */
  estimateInput: () => number;
  /** Called only when the provider did not report output tokens. */
  estimateOutput: () => number;
}

/**
 * Usage saved by any version: a current `RunUsage`, or an older shape with only some fields
 * (e.g. `{ promptTokens, completionTokens, totalTokens }`).
 */
export type SavedRunUsage = Partial<RunUsage>;

interface ModelTotals {
  inputTokens: number;
  outputTokens: number;
  calls: number;
  /** Sum of the known costs. */
  cost: number;
  /** False once any call of this model had no price: its cost stays unknown. */
  costKnown: boolean;
}

interface DelegatedTotals {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cost: number;
  costKnown: boolean;
  modelCalls: number;
  estimated: boolean;
  runs: number;
}

/** A saved usage read into the tracker's working form. */
interface ReadUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens: number | undefined;
  reasoningTokens: number | undefined;
  estimated: boolean;
  modelCalls: number;
  byModel: Map<string, ModelTotals>;
  /** Cost the saved total had beyond its `byModel` entries (hand-made or foreign usage). */
  unattributedCost: number;
  /** The saved total had usage but no cost: nothing added to it can make it known again. */
  unattributedCostUnknown: boolean;
  delegated: DelegatedTotals | undefined;
}

/**
 * Running usage totals of one run: the agent loop records each model call, adds delegated children,
 * and publishes `snapshot()` on results, events and checkpoints. Costs follow one rule: the run's
 * `costUsd` is the sum of per-model costs, and stays undefined from the moment any model used has no
 * known price (a partial sum would look like a real total).
 */
export class UsageTracker {
  #inputTokens = 0;
  #outputTokens = 0;
  #totalTokens = 0;
  #cachedInputTokens: number | undefined;
  #reasoningTokens: number | undefined;
  #estimated = false;
  #modelCalls = 0;
  /** This run's own calls, for 1-based step numbers (delegated calls count in `modelCalls` only). */
  #ownCalls = 0;
  #byModel = new Map<string, ModelTotals>();
  #unattributedCost = 0;
  #unattributedCostUnknown = false;
  #delegated: DelegatedTotals | undefined;

  /** Start from saved totals (resume after a checkpoint or an approval), or from zero. */
  constructor(initial?: SavedRunUsage) {
    if (initial === undefined || initial === null) return;
    const saved = readUsage(initial);
    this.#inputTokens = saved.inputTokens;
    this.#outputTokens = saved.outputTokens;
    this.#totalTokens = saved.totalTokens;
    this.#cachedInputTokens = saved.cachedInputTokens;
    this.#reasoningTokens = saved.reasoningTokens;
    this.#estimated = saved.estimated;
    this.#modelCalls = saved.modelCalls;
    this.#ownCalls = Math.max(0, saved.modelCalls - (saved.delegated?.modelCalls ?? 0));
    this.#byModel = saved.byModel;
    this.#unattributedCost = saved.unattributedCost;
    this.#unattributedCostUnknown = saved.unattributedCostUnknown;
    this.#delegated = saved.delegated;
  }

  /**
   * Records one model call. Reported counts win; a count the provider left out is estimated with
   * the matching thunk and the step (and the run) is marked `estimated`.
   */
  record(input: RecordStepInput): StepUsage {
    const model = typeof input.model === 'string' && input.model.length > 0 ? input.model : 'unknown';
    const reported = input.reported ?? undefined;
    const reportedInput = readCount(reported?.promptTokens);
    const reportedOutput = readCount(reported?.completionTokens);
    const inputTokens = reportedInput ?? toCount(input.estimateInput());
    const outputTokens = reportedOutput ?? toCount(input.estimateOutput());
    const estimated = reportedInput === undefined || reportedOutput === undefined;

    const usage: TokenCounts = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
    const cached = readCount(reported?.cachedInputTokens);
    if (cached !== undefined) usage.cachedInputTokens = cached;
    const reasoning = readCount(reported?.reasoningTokens);
    if (reasoning !== undefined) usage.reasoningTokens = reasoning;
    const costUsd = estimateCost(usage, model);

    this.#inputTokens += inputTokens;
    this.#outputTokens += outputTokens;
    this.#totalTokens += usage.totalTokens;
    if (cached !== undefined) this.#cachedInputTokens = (this.#cachedInputTokens ?? 0) + cached;
    if (reasoning !== undefined) this.#reasoningTokens = (this.#reasoningTokens ?? 0) + reasoning;
    this.#estimated ||= estimated;
    this.#modelCalls += 1;
    this.#ownCalls += 1;
    addToModel(this.#byModel, model, { inputTokens, outputTokens, calls: 1, cost: costUsd ?? 0, costKnown: costUsd !== undefined });

    const step: StepUsage = { step: this.#ownCalls, model, usage: Object.freeze(usage), estimated };
    if (costUsd !== undefined) step.costUsd = costUsd;
    return Object.freeze(step);
  }

  /**
   * Adds a delegated child run's usage: to the totals and `byModel`, and on its own to `delegated`
   * (`runs` counts every delegated run, the child's own delegations included). `as: 'call'` is work
   * done for the run that is no run of its own (a compaction summary): its tokens count, `runs` does not.
   */
  addDelegated(childUsage: SavedRunUsage, as: 'run' | 'call' = 'run'): void {
    const child = readUsage(childUsage ?? {});
    const childCost = totalCost(child.byModel, child.unattributedCost, child.unattributedCostUnknown);

    this.#inputTokens += child.inputTokens;
    this.#outputTokens += child.outputTokens;
    this.#totalTokens += child.totalTokens;
    if (child.cachedInputTokens !== undefined) this.#cachedInputTokens = (this.#cachedInputTokens ?? 0) + child.cachedInputTokens;
    if (child.reasoningTokens !== undefined) this.#reasoningTokens = (this.#reasoningTokens ?? 0) + child.reasoningTokens;
    this.#estimated ||= child.estimated;
    this.#modelCalls += child.modelCalls;
    for (const [model, totals] of child.byModel) addToModel(this.#byModel, model, totals);
    this.#unattributedCost += child.unattributedCost;
    this.#unattributedCostUnknown ||= child.unattributedCostUnknown;

    const d = (this.#delegated ??= { inputTokens: 0, outputTokens: 0, totalTokens: 0, cost: 0, costKnown: true, modelCalls: 0, estimated: false, runs: 0 });
    d.inputTokens += child.inputTokens;
    d.outputTokens += child.outputTokens;
    d.totalTokens += child.totalTokens;
    d.cost += childCost ?? 0;
    d.costKnown &&= childCost !== undefined;
    d.modelCalls += child.modelCalls;
    d.estimated ||= child.estimated;
    d.runs += (as === 'run' ? 1 : 0) + (child.delegated?.runs ?? 0);
  }

  /** The running totals now: a new frozen, JSON-serializable object on every call. */
  snapshot(): RunUsage {
    const byModel: Record<string, ModelUsage> = Object.fromEntries(
      [...this.#byModel].map(([model, m]) => {
        const entry: ModelUsage = { inputTokens: m.inputTokens, outputTokens: m.outputTokens, calls: m.calls };
        if (m.costKnown) entry.costUsd = m.cost;
        return [model, Object.freeze(entry)];
      }),
    );
    const usage: RunUsage = {
      inputTokens: this.#inputTokens,
      outputTokens: this.#outputTokens,
      totalTokens: this.#totalTokens,
      estimated: this.#estimated,
      modelCalls: this.#modelCalls,
      byModel: Object.freeze(byModel),
      promptTokens: this.#inputTokens,
      completionTokens: this.#outputTokens,
    };
    if (this.#cachedInputTokens !== undefined) usage.cachedInputTokens = this.#cachedInputTokens;
    if (this.#reasoningTokens !== undefined) usage.reasoningTokens = this.#reasoningTokens;
    const cost = totalCost(this.#byModel, this.#unattributedCost, this.#unattributedCostUnknown);
    if (cost !== undefined) usage.costUsd = cost;
    if (this.#delegated) usage.delegated = Object.freeze(delegatedView(this.#delegated));
    return Object.freeze(usage);
  }
}

/** A run that used nothing yet: zero tokens, zero calls, a known cost of $0. */
export function emptyUsage(): RunUsage {
  return new UsageTracker().snapshot();
}

function totalCost(byModel: Map<string, ModelTotals>, unattributedCost: number, unattributedUnknown: boolean): number | undefined {
  if (unattributedUnknown) return undefined;
  let sum = unattributedCost;
  for (const m of byModel.values()) {
    if (!m.costKnown) return undefined;
    sum += m.cost;
  }
  return sum;
}

function addToModel(byModel: Map<string, ModelTotals>, model: string, add: ModelTotals): void {
  const m = byModel.get(model);
  if (!m) {
    byModel.set(model, { ...add });
    return;
  }
  m.inputTokens += add.inputTokens;
  m.outputTokens += add.outputTokens;
  m.calls += add.calls;
  m.cost += add.cost;
  m.costKnown &&= add.costKnown;
}

function delegatedView(d: DelegatedTotals): DelegatedUsage {
  const view: DelegatedUsage = {
    inputTokens: d.inputTokens,
    outputTokens: d.outputTokens,
    totalTokens: d.totalTokens,
    modelCalls: d.modelCalls,
    estimated: d.estimated,
    runs: d.runs,
  };
  if (d.costKnown) view.costUsd = d.cost;
  return view;
}

/** Reads saved usage of any version, tolerating missing or broken fields. */
function readUsage(raw: SavedRunUsage): ReadUsage {
  const inputTokens = readCount(raw.inputTokens) ?? readCount(raw.promptTokens) ?? 0;
  const outputTokens = readCount(raw.outputTokens) ?? readCount(raw.completionTokens) ?? 0;

  const byModel = new Map<string, ModelTotals>();
  let attributedCalls = 0;
  let attributedCost = 0;
  if (raw.byModel && typeof raw.byModel === 'object') {
    for (const [model, entry] of Object.entries(raw.byModel)) {
      if (!entry || typeof entry !== 'object') continue;
      const cost = readCost(entry.costUsd);
      const totals: ModelTotals = {
        inputTokens: readCount(entry.inputTokens) ?? 0,
        outputTokens: readCount(entry.outputTokens) ?? 0,
        calls: readCount(entry.calls) ?? 0,
        cost: cost ?? 0,
        costKnown: cost !== undefined,
      };
      byModel.set(model, totals);
      attributedCalls += totals.calls;
      attributedCost += totals.cost;
    }
  }
  const modelCalls = readCount(raw.modelCalls) ?? attributedCalls;
  const totalTokens = readCount(raw.totalTokens) ?? inputTokens + outputTokens;

  // Older checkpoints carry token counts but no cost: their cost is unknown, not zero.
  const savedCost = readCost(raw.costUsd);
  const hadUsage = inputTokens > 0 || outputTokens > 0 || totalTokens > 0 || modelCalls > 0;
  const unattributedCostUnknown = savedCost === undefined && hadUsage;
  const beyondByModel = savedCost === undefined ? 0 : savedCost - attributedCost;

  return {
    inputTokens,
    outputTokens,
    totalTokens,
    cachedInputTokens: readCount(raw.cachedInputTokens),
    reasoningTokens: readCount(raw.reasoningTokens),
    estimated: raw.estimated === true,
    modelCalls,
    byModel,
    // Ignore float dust from summing; keep real gaps (a total given without its per-model split).
    unattributedCost: beyondByModel > 1e-9 * Math.max(1, savedCost ?? 0) ? beyondByModel : 0,
    unattributedCostUnknown,
    delegated: readDelegated(raw.delegated),
  };
}

function readDelegated(raw: Partial<DelegatedUsage> | undefined): DelegatedTotals | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const inputTokens = readCount(raw.inputTokens) ?? 0;
  const outputTokens = readCount(raw.outputTokens) ?? 0;
  const totalTokens = readCount(raw.totalTokens) ?? inputTokens + outputTokens;
  const modelCalls = readCount(raw.modelCalls) ?? 0;
  const cost = readCost(raw.costUsd);
  const hadUsage = inputTokens > 0 || outputTokens > 0 || totalTokens > 0 || modelCalls > 0;
  return {
    inputTokens,
    outputTokens,
    totalTokens,
    cost: cost ?? 0,
    costKnown: cost !== undefined || !hadUsage,
    modelCalls,
    estimated: raw.estimated === true,
    runs: readCount(raw.runs) ?? 0,
  };
}

/** A token count as reported or saved, or undefined when missing or not a usable number. */
function readCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

function readCost(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** An estimate from a thunk: a whole, non-negative number. */
function toCount(value: unknown): number {
  return readCount(value) ?? 0;
}
