import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { NodeDefinition } from './definition.js';
import { buildGraph, type FlowGraph } from './graph.js';
import type { FlowNodeKind } from './types.js';

/** A node as a UI (or a log) may show it. */
export interface FlowNodeSummary {
  id: string;
  kind: FlowNodeKind;
  label: string;
  /** What it runs after (`any`: after whichever of them ran). */
  after: { mode: 'all' | 'any'; ids: readonly string[] };
}

/** A checked, runnable flow (made by `FlowBuilder.build()`). Run it with `FlowExecutor`. */
export class Flow<I = unknown, O = Record<string, unknown>> {
  /** Type-only marker: the flow's input and outputs. */
  declare readonly __types?: { readonly input: I; readonly outputs: O };
  readonly name: string;
  /** @internal The checked graph the executor runs. */
  readonly graph: FlowGraph;
  /** @internal The schema every input is checked against, if one was given. */
  readonly inputSchema: StandardSchemaV1 | undefined;

  constructor(name: string, nodes: readonly NodeDefinition[], inputSchema: StandardSchemaV1 | undefined) {
    this.graph = buildGraph(name, nodes);
    this.name = name;
    this.inputSchema = inputSchema;
    Object.freeze(this);
  }

  /** The nodes in the order they were added. */
  get nodes(): FlowNodeSummary[] {
    return this.graph.order.map((id) => {
      const node = this.graph.nodes.get(id)!;
      return { id, kind: node.kind, label: node.label ?? id, after: { mode: node.after.mode, ids: [...node.after.ids] } };
    });
  }
}
