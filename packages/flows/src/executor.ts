import type { AgentStore, ApprovalRequest, TraceExporter, TraceParent } from '@lousho/core';
import type { Flow } from './flow.js';
import { defaultStore, FlowHost } from './host/flow-host.js';
import type { FlowResult, FlowRun, FlowRunOptions } from './types.js';

/** One host per store and flow, so runs of the same session in this process see each other. */
const hosts = new WeakMap<AgentStore, WeakMap<Flow<any, any>, FlowHost<any, any>>>();

function hostFor<I, O>(flow: Flow<I, O>, store: AgentStore | undefined): FlowHost<I, O> {
  const key = store ?? defaultStore();
  let byFlow = hosts.get(key);
  if (!byFlow) hosts.set(key, (byFlow = new WeakMap()));
  let host = byFlow.get(flow) as FlowHost<I, O> | undefined;
  if (!host) byFlow.set(flow, (host = new FlowHost(flow, { store: key })));
  return host;
}

/** Options of the calls that go on with a stored run. */
export interface FlowContinueOptions {
  signal?: AbortSignal;
  store?: AgentStore;
  concurrency?: number;
  /** Traces the continuation: a new `invoke_workflow` span linked to the leg before it (see docs/tracing.md). */
  traceExporter?: TraceExporter;
  /** The span the continuation nests under; its exporter is used without `traceExporter`. */
  traceParent?: TraceParent;
}

/** A person's decision on a flow's approval node. */
export interface FlowDecision {
  approvalId: string;
  approved: boolean;
  note?: string;
}

/**
 * Runs flows. Everything a run needs later (to resume after a crash, to go on after an approval)
 * is in the store, so these are plain functions of the flow, the input and the store.
 */
export class FlowExecutor {
  /**
   * Runs the flow to its end, a pause for a person, or a stop. Nodes start as soon as what they run
   * after is done. With `sessionId` (and a store that keeps), each finished node is checkpointed:
   * after a crash, calling `run()` again with the same session and input (or `resume()`) goes on
   * without running finished nodes again. A failed node rejects with a `FlowNodeError`.
   */
  static run<I, O>(flow: Flow<I, O>, input: I, options: FlowRunOptions = {}): Promise<FlowResult<O>> {
    try {
      return FlowExecutor.stream(flow, input, options).result;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Like `run()`, with the run's events: the agent protocol's events plus `flow.*` (see docs/events.md). */
  static stream<I, O>(flow: Flow<I, O>, input: I, options: FlowRunOptions = {}): FlowRun<O> {
    return hostFor(flow, options.store).start(input, options, 'turn');
  }

  /** Goes on with a run a crash interrupted, taking the session over from the process that died. */
  static resume<I, O>(flow: Flow<I, O>, options: FlowContinueOptions & { sessionId: string }): Promise<FlowResult<O>> {
    try {
      return hostFor(flow, options.store).start(undefined, options, 'resume').result;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Decides a paused approval node and runs the flow on from it; resolves with the continued run. */
  static async resolve<I, O>(flow: Flow<I, O>, decision: FlowDecision, options: FlowContinueOptions = {}): Promise<FlowResult<O>> {
    return (await FlowExecutor.resolveStream(flow, decision, options)).result;
  }

  /** Like `resolve()`, with the continuation's events. */
  static resolveStream<I, O>(flow: Flow<I, O>, decision: FlowDecision, options: FlowContinueOptions = {}): Promise<FlowRun<O>> {
    return hostFor(flow, options.store).decide(
      decision?.approvalId,
      { kind: 'tool', approved: decision?.approved === true, ...(decision?.note !== undefined ? { note: decision.note } : {}) },
      options,
    );
  }

  /** The flow's pending approvals (optionally of one session), oldest first. */
  static approvals<I, O>(flow: Flow<I, O>, options: { store?: AgentStore; sessionId?: string } = {}): Promise<ApprovalRequest[]> {
    return hostFor(flow, options.store).listApprovals(options.sessionId !== undefined ? { sessionId: options.sessionId } : {});
  }
}
