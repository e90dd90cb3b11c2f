import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { AgentListenerEvent, UnsequencedStreamEvent } from '@lousho/protocol';
import { withheldReplyText } from '@lousho/protocol';
import { abortError } from '@lousho/providers';
import type { ToolExecutionContext } from '@lousho/protocol';
import { RunTracer, runTraceOptions } from '../../tracing/run-tracer.js';
import { emptyUsage, UsageTracker } from '../../usage/tracker.js';
import type { Agent } from '@lousho/protocol';
import { interruptedBatch } from '../durable.js';
import { newId } from '../ids.js';
import { emitListener, type LoopDeps } from '../loop-deps.js';
import { childResumeOf } from '../loop-scope.js';
import { runLoop } from '../run-loop.js';
import type { ChildSnapshot, RunSnapshot } from '@lousho/protocol';
import { exceededBudget, type BudgetedRun } from '../stages/budget.js';
import type { BudgetExceeded } from '@lousho/protocol';
import type { BatchContinuation, CallScope } from '../tool-call.js';
import { ChildPaused } from '../child-pause.js';
import { SubagentDepthError } from './depth-error.js';
import { delegationHandleOf } from './handle.js';
import type { SubagentRef } from '@lousho/protocol';

/** The sub-agent answered with something its `output` schema refused, even after the repair step. */
export class SubagentOutputError extends SDKError {
  constructor(name: string, detail: string) {
    super(ERROR_CODES.LOUSHO_INVALID_TOOL_OUTPUT, `Sub-agent '${name}' did not produce valid structured output: ${detail}`, {
      hint: "Check the sub-agent's instructions and its `output` schema.",
    });
    this.name = 'SubagentOutputError';
  }
}

/** A sub-agent ended on a budget (its own, or a run's it is nested in) before it answered. */
export class SubagentBudgetError extends SDKError {
  constructor(name: string, budget: BudgetExceeded, own: boolean) {
    const used = `used ${budget.used} of ${budget.max}`;
    super(
      ERROR_CODES.LOUSHO_SUBAGENT_BUDGET,
      own
        ? `Sub-agent '${name}' ran out of its own ${budget.limit} budget (${used}) before it answered.`
        : `The run's ${budget.limit} budget ran out while sub-agent '${name}' was working (${used}), so it was stopped before it answered.`,
      { hint: own ? "Raise the sub-agent's limits, or give it a smaller task." : "Raise the lead agent's limits: a sub-agent's usage counts against them." },
    );
    this.name = 'SubagentBudgetError';
  }
}

/**
 * A run's usage with that of its sub-agents still running (their own running sub-agents included),
 * which is added to the run's only when each one finishes.
 */
function withRunningChildren(run: RunSnapshot): BudgetedRun {
  const running = Object.values(run.children ?? {}).filter((child) => !child.result);
  if (running.length === 0) return run;
  const usage = new UsageTracker(run.usage);
  for (const child of running) usage.addDelegated(withRunningChildren(child).usage);
  return { usage: usage.snapshot(), toolCalls: run.toolCalls, ...(run.activeMs !== undefined ? { activeMs: run.activeMs } : {}) };
}

/**
 * Runs `agent` as a nested run of the run `scope` belongs to: on `prompt` alone, with the parent's
 * signal, hooks, permission rules, approval handling, listeners and event sink, its state kept in
 * the parent's snapshot (so checkpoints, pauses and crash recovery carry it). Resolves with the
 * sub-agent's answer (`object` with an `output` schema, else its final text), or `ChildPaused`
 * when a call inside it waits for a person.
 */
export async function runChild(agent: unknown, name: string, prompt: string, ctx: ToolExecutionContext, scope: CallScope | undefined): Promise<unknown> {
  const handle = delegationHandleOf(agent);
  if (!handle) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Sub-agent '${name}' is not an agent made by createAgent().`, { hint: 'Create sub-agents with createAgent().' });
  }
  if (!scope) return runStandalone(agent as Agent, name, prompt, ctx);

  const parent = scope.deps;
  const depth = (parent.subagent?.depth ?? 0) + 1;
  const maxDepth = parent.maxSubagentDepth ?? 1;
  if (depth > maxDepth) throw new SubagentDepthError(name, depth, maxDepth);
  const ref: SubagentRef = { name, depth, toolCallId: ctx.toolCallId };
  const home = scope.snapshot;

  const start = startingPoint(ctx, home, name, prompt);
  // Finished before a crash, its answer recorded: it is neither run nor counted again.
  if ('done' in start) return start.done;
  const { snapshot, continuation } = start;
  const setup = await handle.setup(snapshot.configContext, snapshot.model || undefined);
  if (!snapshot.model) snapshot.model = setup.model;
  (home.children ??= {})[ctx.toolCallId] = snapshot;
  const deps = childDeps(parent, setup.deps, ref, () => parent.checkpoint?.(home));
  // The budgets of the runs it is nested in: checked with the sub-agent's own, after each of its
  // model calls and tool batches, on the lead's usage plus every sub-agent still running.
  let outerTripped: BudgetExceeded | undefined;
  if (parent.limits || parent.outerBudget) {
    deps.outerBudget = () => (outerTripped = exceededBudget(parent.limits, withRunningChildren(home), scope.legStart) ?? parent.outerBudget?.());
  }
  // Traced like a run nested in the delegating call: its `invoke_agent` span (and under it its
  // model and tool calls) is a child of the call's `execute_tool` span (`ctx.trace`).
  const trace = runTraceOptions(setup.traceExporter, ctx.trace, { name, description: setup.description });
  const tracer = trace && RunTracer.begin(trace, snapshot, continuation !== undefined);
  if (tracer) {
    deps.tracer = tracer;
    tracer.configure(deps);
  }

  let outcome;
  try {
    outcome = await runLoop(deps, snapshot, continuation);
  } catch (error) {
    tracer?.fail(error);
    count(scope, snapshot);
    throw error;
  }
  tracer?.finish(outcome.finishReason, outcome.paused?.approval.approvalId);
  if (outcome.paused) return new ChildPaused({ ...outcome.paused.approval, subagent: outcome.paused.approval.subagent ?? ref });

  emitListener(deps, { type: 'finish', runId: snapshot.runId, finishReason: outcome.finishReason, usage: snapshot.usage, text: outcome.text });
  if (outcome.finishReason === 'aborted') {
    count(scope, snapshot);
    throw abortError(parent.signal?.reason);
  }
  if (outcome.finishReason === 'budget-exceeded' && outcome.budget) {
    count(scope, snapshot);
    throw new SubagentBudgetError(name, outcome.budget, outcome.budget !== outerTripped);
  }
  if (outcome.finishReason === 'output-invalid') {
    count(scope, snapshot);
    throw new SubagentOutputError(name, outcome.outputError?.message ?? 'the reply did not match the schema');
  }
  // An output guardrail blocked its reply: the lead is told so, in the words its own transcript
  // would keep, and the UI and the stored log withhold the reply the sub-agent streamed.
  const blocked = outcome.finishReason === 'guardrail' && outcome.guardrail?.stage === 'output' ? withheldReplyText(outcome.guardrail.name) : undefined;
  const result = blocked ?? (outcome.object !== undefined ? outcome.object : outcome.text);
  count(scope, snapshot, { value: result });
  return result;
}

/** Adds the sub-agent's usage to the parent's totals (once), and keeps its answer for a re-run after a crash. */
function count(scope: CallScope, snapshot: ChildSnapshot, result?: { value: unknown }): void {
  if (snapshot.result) return;
  scope.usage.addDelegated(snapshot.usage);
  scope.snapshot.usage = scope.usage.snapshot();
  snapshot.result = result ?? { value: null, failed: true };
}

type StartingPoint = { snapshot: ChildSnapshot; continuation: BatchContinuation | undefined } | { done: unknown };

/** Where the sub-agent starts: a decided approval inside it, its saved state (pause or crash), or fresh. */
function startingPoint(ctx: ToolExecutionContext, home: CallScope['snapshot'], name: string, prompt: string): StartingPoint {
  const resume = childResumeOf(ctx);
  if (resume) return { snapshot: resume.snapshot as ChildSnapshot, continuation: resume.continuation };
  const saved = home.children?.[ctx.toolCallId];
  if (saved && saved.subagent === name) {
    if (saved.result && !saved.result.failed) return { done: saved.result.value };
    // Paused on another approval than the one decided: its call is prepared again and asks again.
    if (saved.paused) return { snapshot: saved, continuation: {} };
    if (!saved.result) return { snapshot: saved, continuation: { recovered: true, ...(interruptedBatch(saved) ?? {}) } };
  }
  const metadata = home.configContext.metadata;
  const snapshot: ChildSnapshot = {
    subagent: name,
    runId: newId('run'),
    sessionId: home.sessionId,
    model: '',
    configContext: { sessionId: home.sessionId, input: prompt, ...(metadata ? { metadata } : {}) },
    messages: [Object.freeze({ role: 'user', content: prompt })],
    runStart: 0,
    steps: 0,
    usage: emptyUsage(),
    stepUsage: [],
    toolCalls: [],
  };
  return { snapshot, continuation: undefined };
}

/**
 * The sub-agent's loop: its own model, instructions, tools and limits, and the parent's signal,
 * hooks and permission rules (first), approval decisions in code, listeners and event sink. Every
 * event and listener event it produces carries `subagent` (the innermost sub-agent's, when nested).
 */
function childDeps(parent: LoopDeps, own: Omit<LoopDeps, 'emit' | 'signal'>, ref: SubagentRef, checkpoint: () => void | Promise<void>): LoopDeps {
  const tag = <E extends { subagent?: SubagentRef }>(e: E): E => (e.subagent ? e : { ...e, subagent: ref });
  const both = <A extends unknown[]>(a: ((...args: A) => void) | undefined, b: ((...args: A) => void) | undefined) =>
    a && b
      ? (...args: A) => {
          a(...args);
          b(...args);
        }
      : (a ?? b);
  const tagged = <T extends { subagent?: SubagentRef }>(fn: ((value: T) => void) | undefined) => fn && ((value: T) => fn(tag(value)));
  const onEvent = both<[AgentListenerEvent]>(tagged(parent.onEvent), tagged(own.onEvent));
  const onToolCall = both(tagged(parent.onToolCall), tagged(own.onToolCall));
  const onToolResult = both(tagged(parent.onToolResult), tagged(own.onToolResult));
  const onPermissionDecision = both(tagged(parent.onPermissionDecision), tagged(own.onPermissionDecision));
  const onLLMResponse = both(parent.onLLMResponse, own.onLLMResponse);
  const { approve: _ownApprove, onEvent: _e, onToolCall: _c, onToolResult: _r, onPermissionDecision: _p, onLLMResponse: _l, ...rest } = own;
  return {
    ...rest,
    hooks: [...new Set([...parent.hooks, ...own.hooks])],
    permissions: [...parent.permissions, ...own.permissions],
    emit: (event: UnsequencedStreamEvent) => parent.emit(tag(event)),
    ...(parent.signal ? { signal: parent.signal } : {}),
    ...(parent.approve ? { approve: parent.approve } : {}),
    ...(own.sandbox ?? parent.sandbox ? { sandbox: own.sandbox ?? parent.sandbox } : {}),
    ...(parent.checkpoint ? { checkpoint } : {}),
    subagent: ref,
    maxSubagentDepth: parent.maxSubagentDepth ?? 1,
    ...(onEvent ? { onEvent } : {}),
    ...(onToolCall ? { onToolCall } : {}),
    ...(onToolResult ? { onToolResult } : {}),
    ...(onPermissionDecision ? { onPermissionDecision } : {}),
    ...(onLLMResponse ? { onLLMResponse } : {}),
  };
}

/** A delegate tool called outside an agent run (e.g. by hand): the sub-agent runs as a plain `send()`. */
async function runStandalone(agent: Agent, name: string, prompt: string, ctx: ToolExecutionContext): Promise<unknown> {
  const result = await agent.send(prompt, ctx.abortSignal ? { signal: ctx.abortSignal } : {});
  if (result.finishReason === 'aborted') throw abortError(ctx.abortSignal?.reason);
  if (result.finishReason === 'awaiting-approval') {
    throw new SDKError(ERROR_CODES.LOUSHO_SESSION_AWAITING_APPROVAL, `Sub-agent '${name}' paused for an approval, which only a run of its lead agent can carry.`, {
      hint: "Call the delegate tool through an agent's run, or decide its approvals in code with the sub-agent's `approve` option.",
    });
  }
  return result.object !== undefined ? result.object : result.text;
}
