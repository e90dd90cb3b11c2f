// @lousho/evals: agent evals. Isomorphic: the `lousho eval` command (files, terminal) lives in @lousho/cli.
export { defineEval, isEval, caseLabel } from './define-eval.js';
export { runEval } from './run-eval.js';
export { exactMatch, type ExactMatchOptions } from './scorers/exact-match.js';
export { includes, type IncludesOptions } from './scorers/includes.js';
export { toolCallOrder, type ToolCallOrderOptions } from './scorers/tool-call-order.js';
export { budget, type BudgetLimits } from './scorers/budget.js';
export { atLeast } from './scorers/at-least.js';
export { llmJudge, LLM_JUDGE_SYSTEM_PROMPT, type LlmJudgeOptions } from './scorers/llm-judge.js';
export { compareWithBaseline, type Regression, type BaselineComparison } from './baseline.js';
export { EVAL_ERROR_CODES } from './errors.js';
export { failureLines } from './failures.js';
export { toolCallsInCallOrder } from './target.js';
export type {
  EvalCase,
  EvalAgent,
  EvalToolCall,
  EvalOutput,
  ScoreContext,
  ScoreResult,
  Scorer,
  Check,
  CheckResult,
  EvalDefinition,
  Eval,
  UsageTotals,
  ScoreSummary,
  CheckSummary,
  CaseRunReport,
  CaseReport,
  EvalReport,
  EvalProgressEvent,
  RunEvalOptions,
} from './types.js';
