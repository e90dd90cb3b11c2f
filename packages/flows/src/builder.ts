import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ToolDescriptor, ToolOutput } from '@lousho/core';
import type { NodeDefinition, RuntimeCondition, Work } from './definition.js';
import { Flow } from './flow.js';
import type {
  FlowAfter,
  FlowAgentOutput,
  FlowAgentStep,
  FlowApprovalOutput,
  FlowBranchOutput,
  FlowBranchStep,
  FlowCondition,
  FlowDefaultAfter,
  FlowNodeAgent,
  FlowFunctionStep,
  FlowLoopOutput,
  FlowNewId,
  FlowNodeMap,
  FlowNodeOptions,
  FlowOneOfBranch,
  FlowToolStep,
  FlowVariables,
  FlowWithNode,
  FlowEachStep,
  FlowEachOutput,
  FlowOutputsOf,
} from './types.js';

/** The ids of the nodes so far. */
type Ids<N extends FlowNodeMap> = keyof N & string;



/**
 * Builds a flow: a graph of nodes, each with an id whose output becomes a variable of the nodes
 * after it. A node runs after the node added before it unless `after` says otherwise, and as soon
 * as what it runs after is done. Every method returns a new builder; `build()` checks the graph.
 *
 * ```ts
 * const triage = FlowBuilder.create<{ message: string }>('triage')
 *   .agent('classify', { agent: classifier, input: 'Classify: {{input.message}}' })
 *   .oneOf('route', { branches: [{ when: "classify === 'refund'", then: 'refund' }], otherwise: 'reply' })
 *   .agent('refund', { agent: writer, input: 'Refund reply to: {{input.message}}', after: 'route' })
 *   .agent('reply', { agent: writer, input: 'Reply to: {{input.message}}', after: 'route' })
 *   .approval('review', { title: 'Send this reply?', after: { any: ['refund', 'reply'] } })
 *   .build();
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the empty node map: an intersection grows from it
export class FlowBuilder<I = unknown, N extends FlowNodeMap = {}, Last extends string = never> {
  readonly #name: string;
  readonly #nodes: readonly NodeDefinition[];
  readonly #input: StandardSchemaV1 | undefined;

  private constructor(name: string, nodes: readonly NodeDefinition[], input: StandardSchemaV1 | undefined) {
    this.#name = name;
    this.#nodes = nodes;
    this.#input = input;
  }

  /**
   * A new, empty flow. Give the input's type as a type argument, or an `input` schema (zod or any
   * Standard Schema) to have every run's input checked against it.
   */
  static create<I = unknown>(name: string, options?: { input?: StandardSchemaV1<unknown, I> }): FlowBuilder<I> {
    return new FlowBuilder<I>(name, [], options?.input);
  }

  #add(definition: NodeDefinition): any {
    return new FlowBuilder(this.#name, [...this.#nodes, definition], this.#input);
  }

  #after(after: unknown): NodeDefinition['after'] {
    if (after === undefined) {
      const previous = this.#nodes.at(-1);
      return { mode: 'all', ids: previous ? [previous.id] : [] };
    }
    if (typeof after === 'string') return { mode: 'all', ids: [after] };
    if (Array.isArray(after)) return { mode: 'all', ids: [...(after as string[])] };
    if (after !== null && typeof after === 'object' && Array.isArray((after as { any?: unknown }).any)) {
      return { mode: 'any', ids: [...((after as { any: string[] }).any)] };
    }
    // Reported by build(), naming the node.
    return { mode: 'all', ids: [after as string] };
  }

  #base(id: string, options: FlowNodeOptions<unknown> | undefined): { id: string; label?: string; after: NodeDefinition['after'] } {
    return { id, ...(options?.label !== undefined ? { label: options.label } : {}), after: this.#after(options?.after) };
  }

  /** Runs an agent on a templated input; its output is the reply text, or with `output` the parsed object. */
  agent<const Id extends string, A extends FlowNodeAgent<any>, S extends StandardSchemaV1 | undefined = undefined, const Af extends FlowAfter<Ids<N>> = FlowDefaultAfter<Last>>(
    id: FlowNewId<Id, N>,
    spec: FlowAgentStep<FlowVariables<I, N, Af>, A, S> & FlowNodeOptions<Af>,
  ): FlowBuilder<I, FlowWithNode<N, Id, FlowAgentOutput<A, S>, Af>, Id> {
    return this.#add({ ...this.#base(id, spec), kind: 'agent', work: workOf(spec) });
  }

  /** Calls one tool with templated arguments (checked against its schema); its output is the tool's result. */
  tool<const Id extends string, T extends ToolDescriptor, const Af extends FlowAfter<Ids<N>> = FlowDefaultAfter<Last>>(
    id: FlowNewId<Id, N>,
    spec: FlowToolStep<FlowVariables<I, N, Af>, T> & FlowNodeOptions<Af>,
  ): FlowBuilder<I, FlowWithNode<N, Id, ToolOutput<T>, Af>, Id> {
    return this.#add({ ...this.#base(id, spec), kind: 'tool', work: workOf(spec) });
  }

  /** Runs a function of the variables; its output is what the function returns. */
  step<const Id extends string, R, const Af extends FlowAfter<Ids<N>> = FlowDefaultAfter<Last>>(
    id: FlowNewId<Id, N>,
    run: FlowFunctionStep<FlowVariables<I, N, Af>, R>['run'],
    options?: FlowNodeOptions<Af>,
  ): FlowBuilder<I, FlowWithNode<N, Id, Awaited<R>, Af>, Id> {
    return this.#add({ ...this.#base(id, options), kind: 'step', work: { kind: 'step', run: run as never } });
  }

  /**
   * Chooses one branch: the first whose `when` holds runs its `then` node, else `otherwise`; the
   * other branches' nodes are skipped. Its output is the chosen node's id, or null. An expression
   * that cannot be evaluated counts as not matched.
   */
  oneOf<const Id extends string, const T extends string, const O extends string = never, const Af extends FlowAfter<Ids<N>> = FlowDefaultAfter<Last>>(
    id: FlowNewId<Id, N>,
    spec: { branches: readonly FlowOneOfBranch<FlowVariables<I, N, Af>, T>[]; otherwise?: O } & FlowNodeOptions<Af>,
  ): FlowBuilder<I, FlowWithNode<N, Id, T | O | null, Af>, Id> {
    const branches = Array.isArray(spec?.branches) ? spec.branches.map((b) => ({ when: b?.when as RuntimeCondition, then: b?.then as string })) : (spec?.branches as never);
    return this.#add({ ...this.#base(id, spec), kind: 'oneOf', branches, ...(spec?.otherwise !== undefined ? { otherwise: spec.otherwise } : {}) });
  }

  /**
   * Evaluates an expression (see "Flow expressions"); its output is the value. An expression
   * that cannot be evaluated fails the flow with `Failed to evaluate expression: ...`.
   */
  evaluator<const Id extends string, const Af extends FlowAfter<Ids<N>> = FlowDefaultAfter<Last>>(
    id: FlowNewId<Id, N>,
    spec: { expression: string } & FlowNodeOptions<Af>,
  ): FlowBuilder<I, FlowWithNode<N, Id, unknown, Af>, Id> {
    return this.#add({ ...this.#base(id, spec), kind: 'evaluator', expression: spec?.expression });
  }

  /**
   * Fans out and joins: runs every branch (or `each` for every item of `forEach`) with at most
   * `concurrency` at once, and outputs their outputs (by branch name, or as an array in item order)
   * once all finished. Each finished branch is checkpointed on its own.
   */
  parallel<const Id extends string, const B extends Record<string, FlowBranchStep<FlowVariables<I, N, Af>>>, const Af extends FlowAfter<Ids<N>> = FlowDefaultAfter<Last>>(
    id: FlowNewId<Id, N>,
    spec: { branches: B; concurrency?: number } & FlowNodeOptions<Af>,
  ): FlowBuilder<I, FlowWithNode<N, Id, { -readonly [K in keyof B]: FlowBranchOutput<B[K]> }, Af>, Id>;
  parallel<
    const Id extends string,
    T,
    R = never,
    A extends FlowNodeAgent<any> = never,
    S extends StandardSchemaV1 | undefined = undefined,
    TT extends ToolDescriptor = never,
    const Af extends FlowAfter<Ids<N>> = FlowDefaultAfter<Last>,
  >(
    id: FlowNewId<Id, N>,
    spec: {
      forEach: (vars: FlowVariables<I, N, Af>) => readonly T[] | Promise<readonly T[]>;
      each: FlowEachStep<FlowVariables<I, N, Af> & { readonly item: T; readonly index: number }, R, A, S, TT>;
      concurrency?: number;
    } & FlowNodeOptions<Af>,
  ): FlowBuilder<I, FlowWithNode<N, Id, FlowEachOutput<R, A, S, TT>[], Af>, Id>;
  parallel(id: string, spec: any): any {
    const concurrency = spec?.concurrency ?? Infinity;
    if (spec && 'forEach' in spec) {
      return this.#add({ ...this.#base(id, spec), kind: 'parallel', forEach: spec.forEach, each: workOf(spec.each), concurrency });
    }
    const branches: Record<string, Work> = {};
    for (const [name, branch] of Object.entries((spec?.branches ?? {}) as Record<string, unknown>)) branches[name] = workOf(branch);
    return this.#add({ ...this.#base(id, spec), kind: 'parallel', branches, concurrency });
  }

  /**
   * Pauses the flow for a person, as agent approvals do (`approval.requested`, `awaiting-approval`).
   * Its output is `{ approved, note? }`. When rejected, the nodes after it are skipped, unless
   * `onReject: 'continue'` (then they run and read the output).
   */
  approval<const Id extends string, const Af extends FlowAfter<Ids<N>> = FlowDefaultAfter<Last>>(
    id: FlowNewId<Id, N>,
    spec?: {
      /** What the person is asked (a template, or a function of the variables). */
      title?: string | ((vars: FlowVariables<I, N, Af>) => string);
      /** What the person reviews (shown as the approval's `args`): a template or a function. */
      data?: string | ((vars: FlowVariables<I, N, Af>) => unknown);
      onReject?: 'skip' | 'continue';
    } & FlowNodeOptions<Af>,
  ): FlowBuilder<I, FlowWithNode<N, Id, FlowApprovalOutput, Af>, Id> {
    return this.#add({
      ...this.#base(id, spec),
      kind: 'approval',
      ...(spec?.title !== undefined ? { title: spec.title as string } : {}),
      ...(spec?.data !== undefined ? { data: spec.data as string } : {}),
      onReject: spec?.onReject ?? 'skip',
    });
  }

  /**
   * The one way to go round: when this node runs and `while` holds, the nodes from `to` up to it
   * run again (at most `max` passes in all); then the flow goes on after it. Inside the body, a
   * node also sees the outputs the body's later nodes had in the previous pass.
   */
  loop<const Id extends string, const Af extends FlowAfter<Ids<N>> = FlowDefaultAfter<Last>>(
    id: FlowNewId<Id, N>,
    spec: { to: Ids<N>; while: FlowCondition<FlowVariables<I, N, Af>>; max: number } & FlowNodeOptions<Af>,
  ): FlowBuilder<I, FlowWithNode<N, Id, FlowLoopOutput, Af>, Id> {
    return this.#add({ ...this.#base(id, spec), kind: 'loop', to: spec?.to, while: spec?.while as RuntimeCondition, max: spec?.max });
  }

  /** Checks the graph and returns the runnable flow. Throws a `FlowDefinitionError` naming the node at fault. */
  build(): Flow<I, FlowOutputsOf<N>> {
    return new Flow<I, FlowOutputsOf<N>>(this.#name, this.#nodes, this.#input);
  }
}

/** The work of an agent, tool or function spec (shapes are checked by `build()`). */
function workOf(spec: unknown): Work {
  const s = (spec ?? {}) as Partial<FlowAgentStep<any> & FlowToolStep<any> & FlowFunctionStep<any>>;
  if (s.agent !== undefined) return { kind: 'agent', agent: s.agent, input: s.input as string, ...(s.output ? { output: s.output } : {}) };
  if (s.tool !== undefined) return { kind: 'tool', tool: s.tool, args: s.args as unknown as Record<string, unknown> };
  return { kind: 'step', run: s.run as (vars: Record<string, unknown>) => unknown };
}
