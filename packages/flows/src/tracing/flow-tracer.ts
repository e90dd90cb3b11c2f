import { GEN_AI, LOUSHO_ATTR, traceErrorOf, type RunUsage, type SpanRef, type TraceExporter, type TraceParent, type TraceSpan } from '@lousho/core';
import type { FlowFinishReason } from '../types.js';

/** The `lousho.flow.*` span attributes (see docs/tracing.md, "Flows"). */
export const FLOW_ATTR = {
  node: LOUSHO_ATTR.flowNode,
  kind: 'lousho.flow.node.kind',
  pass: 'lousho.flow.node.pass',
  iteration: 'lousho.flow.node.iteration',
  status: 'lousho.flow.node.status',
  branch: 'lousho.flow.branch',
  chosen: 'lousho.flow.chosen',
  outputSize: 'lousho.flow.output.size',
  output: 'lousho.flow.output',
  path: 'lousho.flow.path',
  modelCalls: 'lousho.usage.model_calls',
  approved: 'lousho.approval.approved',
} as const;

/** How a node's pass ended, as its span says (`lousho.flow.node.status`). */
export type FlowNodeStatus = 'done' | 'waiting' | 'aborted' | 'error';

/** Tokens the agent calls of a span's work added up. */
interface Tally {
  input: number;
  output: number;
  calls: number;
  estimated: boolean;
}

const tally = (): Tally => ({ input: 0, output: 0, calls: 0, estimated: false });

function add(into: Tally, usage: RunUsage): void {
  into.input += usage.inputTokens;
  into.output += usage.outputTokens;
  // (A run's totals include its sub-agents' calls.)
  into.calls += usage.modelCalls;
  into.estimated ||= usage.estimated;
}

/** Usage attributes: for a node, only when its work made agent calls; for a leg, always. */
function usageAttributes(counted: Tally, always = false) {
  return counted.calls === 0 && !always
    ? {}
    : {
        [GEN_AI.inputTokens]: counted.input,
        [GEN_AI.outputTokens]: counted.output,
        [LOUSHO_ATTR.usageEstimated]: counted.estimated,
        [FLOW_ATTR.modelCalls]: counted.calls,
      };
}

/** The span of one pass of a node (or one branch of a parallel node). */
export class NodeTrace {
  /** What the pass's work nests under: an agent's run (`traceParent`), a tool's call, `ctx.trace`. */
  readonly parent: TraceParent;
  readonly #span: TraceSpan;
  readonly #up: NodeTrace | undefined;
  readonly #content: boolean;
  readonly #counted = tally();
  #ended = false;

  constructor(parent: TraceParent, up: NodeTrace | undefined, content: boolean) {
    this.parent = parent;
    this.#span = parent.span;
    this.#up = up;
    this.#content = content;
  }

  /** An agent call of the pass (its usage also counts in the parallel node a branch belongs to). */
  count(usage: RunUsage): void {
    add(this.#counted, usage);
    this.#up?.count(usage);
  }

  /** The node a `oneOf` chose (none: no branch matched and there is no `otherwise`). */
  chose(node: string | null): void {
    if (node !== null && !this.#span.noop) this.#span.setAttributes({ [FLOW_ATTR.chosen]: node });
  }

  /** An approval node's approval, and (once decided) the decision. */
  approval(approvalId: string, approved?: boolean): void {
    if (!this.#span.noop) this.#span.setAttributes({ [LOUSHO_ATTR.approvalId]: approvalId, [FLOW_ATTR.approved]: approved });
  }

  /** The pass finished with `output` (checkpointed). */
  done(output: unknown): void {
    if (this.#span.noop) return;
    const json = jsonOf(output);
    this.#end('done', { [FLOW_ATTR.outputSize]: json?.length, ...(this.#content && json !== undefined ? { [FLOW_ATTR.output]: json } : {}) });
  }

  /** An approval node waits for a person: the run pauses on it. */
  waiting(approvalId: string): void {
    this.#end('waiting', { [LOUSHO_ATTR.approvalId]: approvalId, [LOUSHO_ATTR.approvalStatus]: 'pending' });
  }

  /** The flow was stopped (or another node failed) while the pass ran: not an error, it did not finish. */
  aborted(): void {
    this.#end('aborted', { [LOUSHO_ATTR.aborted]: true });
  }

  fail(error: unknown): void {
    if (this.#ended || this.#span.noop) return;
    this.#span.fail(traceErrorOf(error));
    this.#end('error', {});
  }

  #end(status: FlowNodeStatus, attributes: Record<string, string | number | boolean | undefined>): void {
    // (Under a no-op leg span the pass has no span of its own: the leg's is not ended here.)
    if (this.#ended || this.#span.noop) return;
    this.#ended = true;
    this.#span.setAttributes({ [FLOW_ATTR.status]: status, ...usageAttributes(this.#counted), ...attributes });
    this.#span.end();
  }

  /** Runs the pass's work with its span current in the exporter's context (other instrumentation nests under it). */
  run<T>(fn: () => T): T {
    const { exporter, span } = this.parent;
    return exporter.runInSpan && !span.noop ? exporter.runInSpan(span, fn) : fn();
  }
}

/** What the tracer knows of a leg when it starts. */
export interface FlowLegInfo {
  flow: string;
  runId: string;
  sessionId: string;
  /** The leg goes on with a run (after a crash, or an approval): it links to the leg before it. */
  continuation: boolean;
  /** The span of the run's latest leg, from the checkpoint. */
  previous?: SpanRef;
}

/**
 * The tracing of one leg of a flow run: an `invoke_workflow <flow>` span for the leg, a
 * `flow_node <pass>` span per node pass under it (parallel branches under their node's span, as
 * siblings), and the agent runs of agent nodes under their pass's span. A leg that goes on from a
 * pause or a crash links to the span of the leg before it, which the checkpoint keeps.
 */
export class FlowTracer {
  readonly #exporter: TraceExporter;
  readonly #span: TraceSpan;
  readonly #noop: boolean;
  readonly #content: boolean;
  readonly #counted = tally();
  #ended = false;

  constructor(exporter: TraceExporter, parent: TraceSpan | undefined, info: FlowLegInfo) {
    this.#exporter = exporter;
    this.#content = exporter.captureContent === true;
    const link = info.continuation ? info.previous : undefined;
    this.#span = exporter.startSpan(`invoke_workflow ${info.flow}`, {
      kind: 'internal',
      ...(parent ? { parent } : {}),
      ...(link ? { links: [link] } : {}),
      attributes: {
        [GEN_AI.operation]: 'invoke_workflow',
        [GEN_AI.workflowName]: info.flow,
        [GEN_AI.conversationId]: info.sessionId,
        [LOUSHO_ATTR.runId]: info.runId,
        ...(info.continuation ? { [LOUSHO_ATTR.continuation]: true } : {}),
      },
    });
    this.#noop = this.#span.noop === true;
  }

  /** The leg's span: what the checkpoint keeps, for the next leg's link (none for a span that records nothing). */
  get ref(): SpanRef | undefined {
    return this.#noop ? undefined : { ...this.#span.ref };
  }

  /** Opens the span of a node's pass; `up`: the parallel node a branch belongs to. */
  node(pass: string, node: { id: string; kind: string; iteration: number; branch?: string }, up?: NodeTrace): NodeTrace {
    const parentSpan = up ? up.parent.span : this.#span;
    // Under a span that records nothing, nothing is made: the work still gets a parent to pass on.
    if (this.#noop) return new NodeTrace({ exporter: this.#exporter, span: this.#span }, up, false);
    const span = this.#exporter.startSpan(`flow_node ${pass}`, {
      kind: 'internal',
      parent: parentSpan,
      attributes: {
        [FLOW_ATTR.node]: node.id,
        [FLOW_ATTR.kind]: node.kind,
        [FLOW_ATTR.pass]: pass,
        [FLOW_ATTR.iteration]: node.iteration > 1 ? node.iteration : undefined,
        [FLOW_ATTR.branch]: node.branch,
      },
    });
    return new NodeTrace({ exporter: this.#exporter, span }, up, this.#content);
  }

  /** An agent call of the leg. */
  count(usage: RunUsage): void {
    add(this.#counted, usage);
  }

  /** The leg ended: its finish reason, the run's path so far, the approval it paused on. */
  finish(finishReason: FlowFinishReason, path: readonly string[], steps: number, approvalId?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#span.setAttributes({
      [GEN_AI.responseFinishReasons]: [finishReason],
      [LOUSHO_ATTR.finishReason]: finishReason,
      [LOUSHO_ATTR.steps]: steps,
      [FLOW_ATTR.path]: [...path],
      [LOUSHO_ATTR.approvalId]: approvalId,
      ...usageAttributes(this.#counted, true),
    });
    this.#span.end();
  }

  /** The leg failed (a node failed, or the store refused a checkpoint). */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#span.setAttributes(usageAttributes(this.#counted, true));
    this.#span.fail(traceErrorOf(error));
    this.#span.end();
  }
}

/** The output as JSON text (what the checkpoint stores), or undefined when it is not JSON. */
function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
