import { SDKError, describeThrown, serializeError, type PendingApprovalInfo, type RunUsage } from '@lousho/core';
import type { NodeDefinition, RuntimeCondition, Vars, Work } from '../definition.js';
import { FLOW_ERROR_CODES, FlowNodeError } from '../errors.js';
import { evaluateCondition, evaluateExpression } from '../expression/evaluate.js';
import { ExpressionError } from '../expression/errors.js';
import { renderTemplate, renderValue } from '../expression/template.js';
import type { FlowGraph } from '../graph.js';
import type { FlowTracer, NodeTrace } from '../tracing/flow-tracer.js';
import type { FlowApprovalOutput, FlowFinishReason, FlowNodeContext, FlowLoopOutput } from '../types.js';
import { keyOf, RunState, type NodeRecord, type RecordMeta } from './run-state.js';
import { runWork, WorkAborted, type NestedEvent } from './work.js';

/** The bodies of the `flow.*` events a leg emits (the session numbers them). See docs/events.md. */
export type FlowEventBody =
  | { type: 'flow.node.start'; toolCallId: string; toolName: string; displayName: string; kind: string; iteration?: number; branch?: string }
  | { type: 'flow.node.event'; toolCallId: string; event: NestedEvent }
  | { type: 'flow.node.done'; toolCallId: string; toolName: string; result: unknown }
  | { type: 'flow.node.error'; toolCallId: string; toolName: string; error: { code: string; message: string } }
  | { type: 'flow.branch'; toolCallId: string; toolName: string; branch: string | null }
  | { type: 'approval.resolved'; approvalId: string; toolCallId: string; approved: boolean; note?: string };

/** How approval nodes reach the approval store. */
export interface ApprovalGate {
  /** The decision on an approval: made, still pending, or the approval was never opened. */
  lookup(approvalId: string): Promise<{ decided: FlowApprovalOutput } | 'pending' | 'none'>;
  /** Stores a new pending approval. */
  open(approval: PendingApprovalInfo): Promise<void>;
}

export interface LegParams {
  graph: FlowGraph;
  runId: string;
  sessionId: string;
  input: unknown;
  /** The run's finished records so far (replayed first, in order). */
  records: readonly NodeRecord[];
  signal: AbortSignal;
  /** Nodes running at once, at most. */
  concurrency: number;
  emit(event: FlowEventBody): void;
  /** Checkpoints a finished node or branch; the leg goes on once it is stored. */
  persist(record: NodeRecord): Promise<void> | void;
  countUsage(usage: RunUsage): void;
  approvals: ApprovalGate;
  /** With tracing: the leg's tracer (a span per pass). */
  tracer?: FlowTracer | undefined;
}

export interface LegOutcome {
  finishReason: FlowFinishReason;
  state: RunState;
  /** Approvals the run waits for at the end (first opened first). */
  waiting: PendingApprovalInfo[];
}

type NodeResult = { done: true; output: unknown; repeat?: boolean } | { done: false; approval: PendingApprovalInfo };

/** The id of the approval a node asks for in a run's pass: the same in every leg, so a leg finds it again. */
export function approvalIdOf(runId: string, node: string, iteration: number): string {
  return `appr_${runId}_${node}_${iteration}`;
}

/**
 * Runs a flow from where its records leave it until nothing more can run: every node whose
 * dependencies are done starts at once (up to `concurrency`), each finished node is checkpointed
 * before the nodes after it start, and approval nodes wait. Resolves with how the leg ended; a
 * failed node rejects (with a `FlowNodeError`) once the nodes still running have settled.
 */
export async function runLeg(params: LegParams): Promise<LegOutcome> {
  const { graph } = params;
  // A pass's key (`draft`, `draft#2`, `research/web`) is unique within its run only: the events
  // name it with the run's id in front, so a session's next run makes new parts in a UI instead of
  // taking over the parts of the run before (the checkpoint keeps the bare keys).
  const passId = (key: string): string => `${params.runId}:${key}`;
  const emit = (event: FlowEventBody): void => params.emit({ ...event, toolCallId: passId(event.toolCallId) });
  const state = new RunState(graph);
  for (const record of params.records) state.apply(record);

  const controller = new AbortController();
  const stop = (): void => controller.abort();
  if (params.signal.aborted) stop();
  else params.signal.addEventListener('abort', stop, { once: true });

  const inflight = new Map<string, Promise<{ id: string; result?: NodeResult; error?: unknown }>>();
  const waiting = new Map<string, PendingApprovalInfo>();
  let failure: FlowNodeError | undefined;
  /** With tracing: the spans of the passes in flight, by node id. */
  const traces = new Map<string, NodeTrace>();
  const tracer = params.tracer;

  /** Stores a record, then applies it: the state never runs ahead of the checkpoint. */
  const commit = async (record: NodeRecord): Promise<void> => {
    await params.persist(record);
    state.apply(record);
  };

  const start = (id: string): void => {
    state.set(id, 'running');
    const run = runNode(id).then(
      (result) => ({ id, result }),
      (error: unknown) => ({ id, error }),
    );
    inflight.set(id, run);
  };

  const runNode = async (id: string): Promise<NodeResult> => {
    const node = graph.nodes.get(id)!;
    const iteration = state.iteration(id);
    const key = state.keyOf(id);
    const trace = tracer?.node(key, { id, kind: node.kind, iteration });
    if (trace) traces.set(id, trace);
    const ctx: FlowNodeContext = { signal: controller.signal, runId: params.runId, sessionId: params.sessionId, node: id, iteration, ...(trace ? { trace: trace.parent } : {}) };
    const vars = state.variables(id, params.input);
    if (node.kind !== 'approval') emit(startEvent(node, key, iteration));
    switch (node.kind) {
      case 'agent':
      case 'tool':
      case 'step':
        return { done: true, output: await runWork(node.work, vars, scopeFor(key, ctx, trace)) };
      case 'evaluator':
        return { done: true, output: evaluateExpression(node.expression, vars) };
      case 'oneOf': {
        const chosen = node.branches.find((branch) => holds(branch.when, vars))?.then ?? node.otherwise ?? null;
        trace?.chose(chosen);
        emit({ type: 'flow.branch', toolCallId: key, toolName: id, branch: chosen });
        return { done: true, output: chosen };
      }
      case 'loop': {
        const again = holds(node.while, vars);
        const output: FlowLoopOutput = { iterations: iteration, exhausted: again && iteration >= node.max };
        return { done: true, output, repeat: again && iteration < node.max };
      }
      case 'parallel':
        return { done: true, output: await runParallel(node, key, vars, ctx, trace) };
      case 'approval':
        return approve(node, key, iteration, vars, trace);
    }
  };

  const scopeFor = (key: string, ctx: FlowNodeContext, trace: NodeTrace | undefined) => ({
    ctx,
    nest: (event: NestedEvent) => emit({ type: 'flow.node.event', toolCallId: key, event }),
    countUsage: trace
      ? (usage: RunUsage) => {
          params.countUsage(usage);
          trace.count(usage);
        }
      : params.countUsage,
    ...(trace ? { trace } : {}),
  });

  const runParallel = async (node: Extract<NodeDefinition, { kind: 'parallel' }>, key: string, vars: Vars, ctx: FlowNodeContext, trace: NodeTrace | undefined): Promise<unknown> => {
    let items: [string, Work, Vars][];
    if (node.forEach) {
      const list = await node.forEach(vars, ctx);
      if (!Array.isArray(list)) throw new SDKError(FLOW_ERROR_CODES.LOUSHO_FLOW_NODE_FAILED, `forEach returned ${describeThrown(list).message}, not an array.`);
      items = list.map((item, index) => [String(index), node.each!, { ...vars, item, index }]);
    } else {
      items = Object.entries(node.branches!).map(([name, work]) => [name, work, vars]);
    }
    const done = state.branches(node.id);
    const todo = items.filter(([name]) => !done.has(name));
    // Branches share the node's signal: one failing stops the others.
    const local = new AbortController();
    const abortLocal = (): void => local.abort();
    ctx.signal.addEventListener('abort', abortLocal, { once: true });
    let next = 0;
    let failed: unknown;
    const lane = async (): Promise<void> => {
      while (next < todo.length && failed === undefined && !local.signal.aborted) {
        const [name, work, branchVars] = todo[next++]!;
        const branchKey = `${key}/${name}`;
        emit({ type: 'flow.node.start', toolCallId: branchKey, toolName: node.id, displayName: `${node.label ?? node.id} / ${name}`, kind: work.kind, branch: name });
        // A branch's span is a child of its node's: branches that run at once are siblings.
        const branchTrace = trace && tracer?.node(branchKey, { id: node.id, kind: work.kind, iteration: ctx.iteration, branch: name }, trace);
        const { trace: _nodeTrace, ...nodeCtx } = ctx;
        const branchCtx: FlowNodeContext = { ...nodeCtx, signal: local.signal, ...(branchTrace ? { trace: branchTrace.parent } : {}) };
        try {
          const output = await runWork(work, branchVars, scopeFor(branchKey, branchCtx, branchTrace));
          await commit({ toolCallId: branchKey, toolName: node.id, args: { kind: 'parallel', iteration: ctx.iteration, branch: name }, result: output, isError: false });
          branchTrace?.done(output);
          emit({ type: 'flow.node.done', toolCallId: branchKey, toolName: node.id, result: output });
        } catch (error) {
          if (error instanceof WorkAborted || (local.signal.aborted && isAbortLike(error))) branchTrace?.aborted();
          else branchTrace?.fail(error);
          failed ??= error;
          local.abort();
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(node.concurrency, todo.length) }, lane));
    } finally {
      ctx.signal.removeEventListener('abort', abortLocal);
    }
    if (failed !== undefined) throw failed;
    if (ctx.signal.aborted && items.some(([name]) => !state.branches(node.id).has(name))) throw new WorkAborted();
    const finished = state.branches(node.id);
    return node.forEach ? items.map(([name]) => finished.get(name)) : Object.fromEntries(items.map(([name]) => [name, finished.get(name)]));
  };

  const approve = async (node: Extract<NodeDefinition, { kind: 'approval' }>, key: string, iteration: number, vars: Vars, trace: NodeTrace | undefined): Promise<NodeResult> => {
    const approvalId = approvalIdOf(params.runId, node.id, iteration);
    const known = await params.approvals.lookup(approvalId);
    if (typeof known === 'object') {
      const { approved, note } = known.decided;
      trace?.approval(approvalId, approved);
      emit({ type: 'approval.resolved', approvalId, toolCallId: key, approved, ...(note !== undefined ? { note } : {}) });
      return { done: true, output: known.decided };
    }
    const title = typeof node.title === 'function' ? node.title(vars) : node.title !== undefined ? renderTemplate(node.title, vars) : undefined;
    const data = typeof node.data === 'function' ? node.data(vars) : node.data !== undefined ? renderValue(node.data, vars) : null;
    const approval: PendingApprovalInfo = {
      approvalId,
      toolCallId: passId(key),
      toolName: node.id,
      displayName: title ?? node.label ?? node.id,
      args: data ?? null,
      kind: 'tool',
    };
    if (known === 'none') {
      emit(startEvent(node, key, iteration));
      await params.approvals.open(approval);
    }
    return { done: false, approval };
  };

  const fail = (id: string, key: string, error: unknown, trace: NodeTrace | undefined): void => {
    const wrapped = nodeFailure(graph.nodes.get(id)!, error);
    trace?.fail(wrapped);
    emit({ type: 'flow.node.error', toolCallId: key, toolName: id, error: serializeError(wrapped) });
    failure ??= wrapped;
    stop();
  };

  for (;;) {
    if (!controller.signal.aborted) {
      for (const id of state.settle()) {
        if (inflight.size >= params.concurrency) break;
        start(id);
      }
    }
    if (inflight.size === 0) break;
    const settled = await Promise.race(inflight.values());
    inflight.delete(settled.id);
    const id = settled.id;
    const key = state.keyOf(id);
    const { result, error } = settled;
    const trace = traces.get(id);
    traces.delete(id);
    if (!result) {
      if (error instanceof WorkAborted || (controller.signal.aborted && isAbortLike(error))) {
        state.set(id, 'pending');
        trace?.aborted();
      } else fail(id, key, error, trace);
      continue;
    }
    if (!result.done) {
      state.set(id, 'waiting');
      waiting.set(id, result.approval);
      trace?.waiting(result.approval.approvalId);
      continue;
    }
    const meta: RecordMeta = { kind: graph.nodes.get(id)!.kind, iteration: state.iteration(id), ...(result.repeat ? { repeat: true as const } : {}) };
    try {
      await commit({ toolCallId: key, toolName: id, args: meta, result: result.output, isError: false });
    } catch (persistError) {
      // The checkpoint could not be written (a lost lease, a store failure): the run cannot go on.
      trace?.fail(persistError);
      failure ??= persistError as FlowNodeError;
      stop();
      continue;
    }
    trace?.done(result.output);
    emit({ type: 'flow.node.done', toolCallId: key, toolName: id, result: result.output });
  }
  params.signal.removeEventListener('abort', stop);

  if (failure) throw failure;
  const finishReason: FlowFinishReason = params.signal.aborted ? 'aborted' : waiting.size > 0 ? 'awaiting-approval' : 'stop';
  return { finishReason, state, waiting: [...waiting.values()] };
}

function startEvent(node: NodeDefinition, key: string, iteration: number): FlowEventBody {
  return { type: 'flow.node.start', toolCallId: key, toolName: node.id, displayName: node.label ?? node.id, kind: node.kind, ...(iteration > 1 ? { iteration } : {}) };
}

/** A condition of a oneOf branch or a loop: an expression that cannot be evaluated counts as not matched. */
function holds(condition: RuntimeCondition, vars: Vars): boolean {
  if (typeof condition === 'function') return Boolean(condition(vars));
  try {
    return evaluateCondition(condition, vars);
  } catch (error) {
    if (error instanceof ExpressionError) return false;
    throw error;
  }
}

function isAbortLike(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

/** The error a failed node fails the flow with: names the node, keeps a stable code and the cause. */
function nodeFailure(node: NodeDefinition, error: unknown): FlowNodeError {
  if (error instanceof FlowNodeError) return error;
  if (node.kind === 'evaluator' && error instanceof ExpressionError) {
    return new FlowNodeError(FLOW_ERROR_CODES.LOUSHO_FLOW_EXPRESSION_FAILED, node.id, `Failed to evaluate expression: ${error.message}`, error, 'Fix the evaluator\'s expression; see "Flow expressions" in docs/flows.md.');
  }
  const { name, message } = describeThrown(error);
  const text = SDKError.is(error) || !name ? message : `${name}: ${message}`;
  const code = SDKError.is(error) ? error.code : FLOW_ERROR_CODES.LOUSHO_FLOW_NODE_FAILED;
  return new FlowNodeError(code, node.id, `Node '${node.id}' failed: ${text}`, error, SDKError.is(error) && error.hint ? error.hint : undefined);
}

export { keyOf };
