import type { AgentInput, ExecutionResult, RunOptions, RunUsage } from '@lousho/core';
import type { Flow } from '@lousho/flows';

/** One input to run, what it should give (for scorers that compare), and free-form data. */
export interface EvalCase<TInput = AgentInput, TExpected = unknown> {
  /** Shown in tables and reports; default: the input's text, shortened, or `case N`. */
  name?: string;
  input: TInput;
  /** What `exactMatch()` (and a judge) compare the run with. */
  expected?: TExpected;
  metadata?: Record<string, unknown>;
}

/** An agent an eval runs: any `createAgent()` agent (each case runs in a new session). */
export interface EvalAgent {
  readonly name?: string;
  /** Runs one case (in a new session, with the eval's signal); a rejection fails that run, with its code. */
  send(input: AgentInput, options?: RunOptions): Promise<ExecutionResult<any>>;
}

/** A tool call the run made, as scorers see it. */
export interface EvalToolCall {
  name: string;
  args: unknown;
  result: unknown;
  isError: boolean;
}

/** What one run of a case produced. */
export interface EvalOutput {
  /** The final reply (an agent's text; a flow's last node's output: a string as it is, else as JSON). */
  text: string;
  /** Structured output: an agent's `object` (with `output`), a flow's `outputs`. */
  object?: unknown;
  /** The tool calls, in the order the model asked for them (parallel calls in their call order; a flow's: its tool nodes' and its agents' calls, in the order they started). */
  toolCalls: EvalToolCall[];
  usage: RunUsage;
  /** Model calls made (a flow: the nodes that ran). */
  steps: number;
  finishReason: string;
  durationMs: number;
  /** The run's own result (`ExecutionResult`, or a flow's `FlowResult`). */
  result: unknown;
}

/** What a scorer or a check is given for one run of a case. */
export interface ScoreContext<TInput = unknown, TExpected = unknown> {
  case: EvalCase<TInput, TExpected>;
  input: TInput;
  expected: TExpected | undefined;
  metadata: Record<string, unknown>;
  output: EvalOutput;
  /** Aborted when the eval is stopped: pass it on to model calls. */
  signal: AbortSignal;
}

/** A score in [0, 1] and why. */
export interface ScoreResult {
  score: number;
  reason: string;
  /** What a scorer that calls a model (`llmJudge`) spent: reported apart from the runs' usage. */
  usage?: RunUsage;
}

/** Rates a run: a score in [0, 1] with a reason. Made by the factories (`exactMatch()`, ...). */
export interface Scorer<TInput = any, TExpected = any> {
  readonly kind: 'scorer';
  readonly name: string;
  /** Every case must have `expected` (checked by `defineEval`). */
  readonly requiresExpected?: boolean;
  /** Scores one run of one case; a throw fails that run (reported with its code), not the whole eval. */
  score(ctx: ScoreContext<TInput, TExpected>): ScoreResult | Promise<ScoreResult>;
}

/** The outcome of a check on one run. */
export interface CheckResult {
  pass: boolean;
  reason: string;
}

/**
 * A gate on a run: `atLeast(scorer, value)`, or your own. A scorer used as a check (`includes(...)`)
 * passes when it scores 1.
 */
export interface Check<TInput = any, TExpected = any> {
  readonly kind: 'check';
  readonly name: string;
  /** Scorer names whose scores this check reads (checked by `defineEval`). */
  readonly reads?: readonly string[];
  /** Judges one run, after its scorers (their results are in `scores`, by name); a throw fails that run. */
  check(ctx: ScoreContext<TInput, TExpected>, scores: Readonly<Record<string, ScoreResult>>): CheckResult | Promise<CheckResult>;
}

/** What `defineEval()` takes. */
export interface EvalDefinition<TInput = AgentInput, TExpected = unknown> {
  name: string;
  description?: string;
  /** The agent each case runs on (a new session per case). Give `agent` or `flow`. */
  agent?: EvalAgent;
  /**
   * A flow (`FlowBuilder…build()`) each case's input runs through (a new session per case). Give
   * `agent` or `flow`. Scorers see its last node's output as `text` and every node's output as `object`.
   */
  flow?: Flow<any, any>;
  cases: readonly EvalCase<TInput, TExpected>[];
  /** Scores averaged into the case's score. */
  scorers?: readonly Scorer<TInput, TExpected>[];
  /** Gates: a run passes when every check passes; the command exits 1 when one does not. */
  checks?: readonly (Scorer<TInput, TExpected> | Check<TInput, TExpected>)[];
  /** The mean score over all cases must reach this (in [0, 1]) for the eval to pass. */
  threshold?: number;
  /** Runs of each case (default 1): scores are averaged over them. */
  repeat?: number;
  /** Share of a case's runs whose checks must pass (default 1: all of them). */
  minPassRate?: number;
  /** Runs going on at once (default 4). */
  concurrency?: number;
  /** A run that takes longer is stopped and fails with `LOUSHO_EVAL_TIMEOUT`. */
  timeoutMs?: number;
}

/** A checked eval, as `defineEval()` returns it: what `runEval()` and `lousho eval` run. */
export interface Eval<TInput = AgentInput, TExpected = unknown> extends Readonly<Omit<EvalDefinition<TInput, TExpected>, 'scorers' | 'checks'>> {
  readonly kind: 'lousho.eval';
  readonly scorers: readonly Scorer<TInput, TExpected>[];
  readonly checks: readonly (Scorer<TInput, TExpected> | Check<TInput, TExpected>)[];
}

/** Token counts and cost added up. `costUsd` is undefined as soon as one run's cost is unknown. */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
  /** Some counts are estimates (the provider reported none). */
  estimated: boolean;
  modelCalls: number;
}

/** One scorer's result for one case, over its runs. */
export interface ScoreSummary {
  /** The mean over the case's runs. */
  score: number;
  /** The reason of the lowest-scoring run. */
  reason: string;
  /** Each run's score. */
  runs: number[];
}

/** One check's result for one case, over its runs. */
export interface CheckSummary {
  /** Runs whose check passed. */
  passed: number;
  runs: number;
  /** The reason of the first failing run (or of the first run when all passed). */
  reason: string;
}

/** One run of a case. */
export interface CaseRunReport {
  repetition: number;
  passed: boolean;
  /** Why the run failed before it could be scored, or a scorer/check that threw (with its code). */
  error?: { code: string; message: string };
  output?: { text: string; toolCalls: string[]; finishReason: string; steps: number; durationMs: number; usage: UsageTotals };
  scores: Record<string, ScoreResult>;
  checks: Record<string, CheckResult>;
}

/** One case of an eval report: whether it passed, its scores and checks, and each of its runs. */
export interface CaseReport {
  index: number;
  name: string;
  input: unknown;
  expected?: unknown;
  metadata?: Record<string, unknown>;
  /** Enough of its runs passed every check (see `minPassRate`). */
  passed: boolean;
  /** The mean of its scorers' scores (1 when the eval has no scorers). */
  score: number;
  /** Share of its runs that passed every check. */
  passRate: number;
  scores: Record<string, ScoreSummary>;
  checks: Record<string, CheckSummary>;
  runs: CaseRunReport[];
}

/** What `runEval()` resolves with (and `lousho eval --json` writes): the verdict, every case, usage and time. */
export interface EvalReport {
  name: string;
  description?: string;
  /** Every case passed, and the mean score reached the threshold (if any). */
  passed: boolean;
  /** The mean of the cases' scores. */
  score: number;
  threshold?: number;
  repeat: number;
  minPassRate: number;
  scorers: string[];
  checks: string[];
  cases: CaseReport[];
  /** The runs' own usage, and (apart) what the judges spent. */
  usage: { runs: UsageTotals; judges: UsageTotals };
  durationMs: number;
}

/** What `runEval()` reports as it goes (the command's progress bar). */
export type EvalProgressEvent =
  | { type: 'eval.start'; eval: string; runs: number }
  | { type: 'run.done'; eval: string; case: string; repetition: number; passed: boolean; done: number; runs: number }
  | { type: 'eval.done'; eval: string; report: EvalReport };

/** Options of `runEval()`. */
export interface RunEvalOptions {
  /** Overrides the eval's `concurrency`. */
  concurrency?: number;
  /** Overrides the eval's `repeat`. */
  repeat?: number;
  /** Stops the eval: running cases are aborted and `runEval()` rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called as the eval goes: when it starts, after each run, and with the report at the end. */
  onProgress?: (event: EvalProgressEvent) => void;
}
