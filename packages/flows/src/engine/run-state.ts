import type { ToolCallRecord } from '@lousho/core';
import type { NodeDefinition, Vars } from '../definition.js';
import { FLOW_ERROR_CODES } from '../errors.js';
import type { FlowGraph } from '../graph.js';
import { SDKError } from '@lousho/core';

export type NodeStatus = 'pending' | 'running' | 'waiting' | 'done' | 'skipped';

/** What a checkpointed record says about the work it stands for (the record's `args`). */
export interface RecordMeta {
  kind: string;
  iteration: number;
  /** A branch of a parallel node (its name, or the item index as text). */
  branch?: string;
  /** A loop pass that sends the flow round again. */
  repeat?: true;
}

/** A finished node (or parallel branch) as checkpointed: a tool-call record of the run. */
export type NodeRecord = ToolCallRecord & { args: RecordMeta };

interface NodeState {
  status: NodeStatus;
  /** The pass the node is on (1 unless a loop sent the flow round). */
  iteration: number;
  /** The latest output (kept when a loop resets the node, for the body's next pass). */
  output?: unknown;
  hasOutput: boolean;
  /** A parallel node's branches finished in this pass. */
  branches: Map<string, unknown>;
}

/** The key of a node's pass: `id`, then `id#2`, `id#3`, ...; a branch adds `/name`. */
export function keyOf(id: string, iteration: number, branch?: string): string {
  return `${id}${iteration > 1 ? `#${iteration}` : ''}${branch !== undefined ? `/${branch}` : ''}`;
}

/**
 * Where a run stands: each node's status, pass and latest output. Everything here follows from
 * the finished records alone, applied in order, so a run rebuilt from its checkpoint makes the
 * same decisions as the run that wrote it.
 */
export class RunState {
  readonly #graph: FlowGraph;
  readonly #nodes = new Map<string, NodeState>();
  /** Node ids in the order they finished. */
  readonly path: string[] = [];

  constructor(graph: FlowGraph) {
    this.#graph = graph;
    for (const id of graph.order) this.#nodes.set(id, { status: 'pending', iteration: 1, hasOutput: false, branches: new Map() });
  }

  #state(id: string): NodeState {
    return this.#nodes.get(id)!;
  }

  status(id: string): NodeStatus {
    return this.#state(id).status;
  }

  iteration(id: string): number {
    return this.#state(id).iteration;
  }

  keyOf(id: string, branch?: string): string {
    return keyOf(id, this.iteration(id), branch);
  }

  /** The branches of a parallel node already finished in its current pass. */
  branches(id: string): ReadonlyMap<string, unknown> {
    return this.#state(id).branches;
  }

  set(id: string, status: 'running' | 'waiting' | 'pending'): void {
    this.#state(id).status = status;
  }

  /** Every node's latest output. */
  outputs(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [id, state] of this.#nodes) if (state.hasOutput) out[id] = state.output;
    return out;
  }

  /** The variables node `id` sees: the input, and the latest outputs of the nodes visible to it. */
  variables(id: string, input: unknown): Vars {
    const vars: Vars = { input };
    for (const other of this.#graph.visible.get(id)!) {
      const state = this.#state(other);
      if (state.hasOutput) vars[other] = state.output;
    }
    return vars;
  }

  /** Applies a finished record (live or replayed). Throws when it does not fit the flow (a changed flow). */
  apply(record: NodeRecord): void {
    const id = record.toolName;
    const node = this.#graph.nodes.get(id);
    const meta = record.args as RecordMeta | undefined;
    const state = node && this.#nodes.get(id);
    if (!node || !state || !meta || meta.iteration !== state.iteration || (meta.branch === undefined ? meta.kind !== node.kind : node.kind !== 'parallel')) {
      throw new SDKError(FLOW_ERROR_CODES.LOUSHO_FLOW_CHECKPOINT_MISMATCH, `The checkpoint has a record '${record.toolCallId}' that does not fit this flow's nodes.`, {
        hint: 'The flow changed since the run was checkpointed: finish it with the flow it started with, or start a new session.',
      });
    }
    if (meta.branch !== undefined) {
      state.branches.set(meta.branch, record.result);
      return;
    }
    state.status = 'done';
    state.output = record.result;
    state.hasOutput = true;
    state.branches = new Map();
    this.path.push(id);
    if (meta.repeat && node.kind === 'loop') this.#goRound(node);
  }

  /** A loop sends the flow round: its body and itself start a new pass. */
  #goRound(loop: Extract<NodeDefinition, { kind: 'loop' }>): void {
    for (const id of [...this.#graph.loopBodies.get(loop.id)!, loop.id]) {
      const state = this.#state(id);
      state.status = 'pending';
      state.iteration++;
      state.branches = new Map();
    }
  }

  /** Whether the edge from `dep` lets `id` run: not yet, yes, or never (skipped, or another branch was chosen). */
  #edge(dep: string, id: string): 'wait' | 'pass' | 'block' {
    const state = this.#state(dep);
    if (state.status === 'skipped') return 'block';
    if (state.status !== 'done') return 'wait';
    const node = this.#graph.nodes.get(dep)!;
    if (node.kind === 'oneOf' && (node.branches.some((b) => b.then === id) || node.otherwise === id)) return state.output === id ? 'pass' : 'block';
    if (node.kind === 'approval' && node.onReject === 'skip' && (state.output as { approved?: unknown } | undefined)?.approved !== true) return 'block';
    return 'pass';
  }

  /**
   * Marks the pending nodes that can no longer run as skipped (until nothing changes), and returns
   * the pending nodes that may start now, in the order they were declared.
   */
  settle(): string[] {
    for (let changed = true; changed; ) {
      changed = false;
      for (const id of this.#graph.order) {
        if (this.#state(id).status === 'pending' && this.#readiness(id) === 'skip') {
          this.#state(id).status = 'skipped';
          changed = true;
        }
      }
    }
    return this.#graph.order.filter((id) => this.#state(id).status === 'pending' && this.#readiness(id) === 'ready');
  }

  #readiness(id: string): 'ready' | 'wait' | 'skip' {
    const { mode, ids } = this.#graph.nodes.get(id)!.after;
    if (ids.length === 0) return 'ready';
    let waiting = false;
    let passed = false;
    let blocked = false;
    for (const dep of ids) {
      const edge = this.#edge(dep, id);
      if (edge === 'wait') waiting = true;
      else if (edge === 'pass') passed = true;
      else blocked = true;
    }
    if (mode === 'all') return blocked ? 'skip' : waiting ? 'wait' : 'ready';
    return waiting ? 'wait' : passed ? 'ready' : 'skip';
  }
}
