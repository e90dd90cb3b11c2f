import type { AgentInput } from '@lousho/core';
import { evalError } from './errors.js';
import type { Check, Eval, EvalDefinition, Scorer } from './types.js';

function invalid(name: string, message: string, hint: string): never {
  throw evalError('LOUSHO_EVAL_INVALID', `Eval '${name}': ${message}`, hint);
}

function isScorer(value: unknown): value is Scorer {
  return typeof value === 'object' && value !== null && (value as Scorer).kind === 'scorer' && typeof (value as Scorer).score === 'function' && typeof (value as Scorer).name === 'string';
}

function isCheck(value: unknown): value is Check {
  return typeof value === 'object' && value !== null && (value as Check).kind === 'check' && typeof (value as Check).check === 'function' && typeof (value as Check).name === 'string';
}

function fraction(name: string, field: string, value: unknown): void {
  if (value !== undefined && !(typeof value === 'number' && value >= 0 && value <= 1)) invalid(name, `${field} must be a number from 0 to 1, got ${String(value)}.`, `e.g. ${field}: 0.8`);
}

function positiveInteger(name: string, field: string, value: unknown): void {
  if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 1)) invalid(name, `${field} must be a positive integer, got ${String(value)}.`, `e.g. ${field}: 3`);
}

/**
 * Defines an eval: cases run on an agent (or a flow), each run rated by scorers (averaged into the
 * case's score) and gated by checks. Checks everything it can up front and throws
 * `LOUSHO_EVAL_INVALID` naming the problem: no target or two, no cases, a case without `expected`
 * for a scorer that compares with it, duplicate scorer names, a check reading a scorer the eval
 * does not have, a threshold outside [0, 1]. Run it with `runEval()`, `describeEval()` (vitest) or
 * `lousho eval` (a module whose default export is the eval, or an array of evals).
 */
export function defineEval<TInput = AgentInput, TExpected = unknown>(definition: EvalDefinition<TInput, TExpected>): Eval<TInput, TExpected> {
  if (typeof definition !== 'object' || definition === null) throw evalError('LOUSHO_EVAL_INVALID', 'defineEval() needs an object.', "defineEval({ name, agent, cases, scorers })");
  const name = definition.name;
  if (typeof name !== 'string' || name.trim() === '') throw evalError('LOUSHO_EVAL_INVALID', 'An eval needs a name (a non-empty string).', "defineEval({ name: 'refunds', ... })");
  const targets = [definition.agent, definition.flow].filter((t) => t !== undefined);
  if (targets.length !== 1) invalid(name, targets.length === 0 ? 'it needs an `agent` or a `flow` to run.' : 'give either `agent` or `flow`, not both.', 'defineEval({ name, agent: createAgent({ ... }), cases, scorers })');
  if (definition.agent !== undefined && typeof definition.agent?.send !== 'function') invalid(name, '`agent` must be an agent made by createAgent() (it has no send()).', 'Pass the agent itself: agent: createAgent({ ... }).');
  if (definition.flow !== undefined && !isFlow(definition.flow)) invalid(name, '`flow` must be a flow made by FlowBuilder…build().', 'Pass the built flow: flow: FlowBuilder.create(...)....build().');
  if (!Array.isArray(definition.cases) || definition.cases.length === 0) invalid(name, 'it needs at least one case.', "cases: [{ input: 'Where is my order?', expected: '...' }]");
  const scorers = definition.scorers ?? [];
  const checks = definition.checks ?? [];
  if (!Array.isArray(scorers)) invalid(name, '`scorers` must be an array.', 'scorers: [exactMatch()]');
  if (!Array.isArray(checks)) invalid(name, '`checks` must be an array.', "checks: [includes('refund')]");
  if (scorers.length === 0 && checks.length === 0) invalid(name, 'it needs at least one scorer or check.', 'scorers: [exactMatch()], or checks: [includes(...)]');
  scorers.forEach((s, i) => {
    if (!isScorer(s)) invalid(name, `scorers[${i}] is not a scorer.`, 'Use a factory: exactMatch(), includes(text), toolCallOrder([...]), budget({...}), llmJudge({...}).');
  });
  checks.forEach((c, i) => {
    if (!isScorer(c) && !isCheck(c)) invalid(name, `checks[${i}] is neither a check nor a scorer.`, "Use atLeast('scorer', 0.8), includes(text), or another scorer.");
  });
  const names = new Set<string>();
  for (const item of [...scorers, ...checks]) {
    if (names.has(item.name)) invalid(name, `two scorers or checks are named '${item.name}'.`, `Give one a name of its own, e.g. includes('refund', { name: 'mentions refund' }).`);
    names.add(item.name);
  }
  const scorerNames = new Set(scorers.map((s) => s.name));
  for (const check of checks) {
    for (const read of (isCheck(check) ? check.reads : undefined) ?? []) {
      if (!scorerNames.has(read)) invalid(name, `check '${check.name}' reads the score of '${read}', which is not one of its scorers (${[...scorerNames].join(', ') || 'none'}).`, `Add the scorer to \`scorers\`, or check a scorer the eval has.`);
    }
  }
  definition.cases.forEach((c, i) => {
    if (typeof c !== 'object' || c === null || !('input' in c)) invalid(name, `case ${i + 1} has no input.`, "Each case is { input, expected?, metadata? }.");
    for (const s of [...scorers, ...checks]) {
      if (isScorer(s) && s.requiresExpected && c.expected === undefined) invalid(name, `case ${i + 1} (${caseLabel(c, i)}) has no \`expected\`, which '${s.name}' compares the run with.`, 'Add expected to every case, or leave that scorer out.');
    }
  });
  fraction(name, 'threshold', definition.threshold);
  fraction(name, 'minPassRate', definition.minPassRate);
  positiveInteger(name, 'repeat', definition.repeat);
  positiveInteger(name, 'concurrency', definition.concurrency);
  positiveInteger(name, 'timeoutMs', definition.timeoutMs);
  return Object.freeze({ ...definition, kind: 'lousho.eval' as const, scorers: Object.freeze([...scorers]), checks: Object.freeze([...checks]), cases: Object.freeze([...definition.cases]) }) as Eval<TInput, TExpected>;
}

/** True for what `defineEval()` returns (also across copies of the package). */
export function isEval(value: unknown): value is Eval<any, any> {
  return typeof value === 'object' && value !== null && (value as Eval).kind === 'lousho.eval' && Array.isArray((value as Eval).cases);
}

/** A flow built by `FlowBuilder`: checked by shape, so this package does not need `@lousho/flows` to load. */
function isFlow(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string' && typeof (value as { graph?: unknown }).graph === 'object';
}

/** A case's name: its own, else its input's text shortened, else `case N`. */
export function caseLabel(c: { name?: string; input: unknown }, index: number): string {
  if (typeof c.name === 'string' && c.name.trim()) return c.name;
  const text = typeof c.input === 'string' ? c.input : undefined;
  if (text && text.trim()) {
    const oneLine = text.trim().replace(/\s+/g, ' ');
    return oneLine.length > 48 ? `${oneLine.slice(0, 47)}…` : oneLine;
  }
  return `case ${index + 1}`;
}
