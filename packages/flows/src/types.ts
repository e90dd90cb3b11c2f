import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { AgentInput, AgentStore, AgentStreamEvent, ExecutionResult, PendingApprovalInfo, RunOptions, RunUsage, SessionListener, ToolDescriptor, ToolInput, ToolOutput, TraceExporter, TraceParent } from '@lousho/core';

/** The kinds of node a flow is made of. */
export type FlowNodeKind = 'agent' | 'tool' | 'oneOf' | 'evaluator' | 'parallel' | 'approval' | 'step' | 'loop';

/**
 * An agent a flow can run: any `createAgent()` agent. `send` runs it; when it has `sessions`, the
 * flow follows the run's events and nests them in its own stream.
 */
export interface FlowNodeAgent<TObject = unknown> {
  readonly __types?: { readonly output: TObject; readonly tools: unknown };
  readonly name?: string;
  send(input: AgentInput, options?: RunOptions): Promise<ExecutionResult<TObject>>;
  readonly sessions?: { subscribe(id: string, listener: SessionListener): () => void };
}

/** What a node's code gets besides the variables. */
export interface FlowNodeContext {
  /** Aborted when the flow is stopped or fails: pass it on to long work. */
  signal: AbortSignal;
  runId: string;
  sessionId: string;
  /** The node's id. */
  node: string;
  /** 1 on the first pass, then 2, 3, ... when a loop runs the node again. */
  iteration: number;
  /**
   * With tracing: the pass's `flow_node` span and its exporter. Pass it to `withSpan()` or as an
   * agent's `traceParent` so your own spans nest under the node.
   */
  trace?: TraceParent;
}

// ---------------------------------------------------------------------------------------------
// What the builder knows of the nodes at the type level.
// ---------------------------------------------------------------------------------------------

/**
 * Per node: its output type, the nodes certainly done when it runs (`sure`) and all the nodes it
 * runs after, directly or not (`anc`). Variables of `sure` nodes are typed as present, those of
 * the other ancestors as optional.
 */
export interface FlowNodeTypeInfo {
  out: unknown;
  sure: string;
  anc: string;
}
export type FlowNodeMap = { [id: string]: FlowNodeTypeInfo };

/**
 * When a node runs: after one node, after all of a list (the default form), or after any of a
 * list (`{ any: [...] }`: once each of them ran or was skipped, if at least one ran; for joining
 * the branches of a `oneOf`). `[]` runs the node at the start.
 */
export type FlowAfter<Ids extends string = string> = Ids | readonly Ids[] | { readonly any: readonly Ids[] };

type DepsOf<A> = A extends { readonly any: readonly (infer D)[] } ? D : A extends readonly (infer D)[] ? D : A;

/** The nodes certainly done after `A`: all of them and theirs, or (for `any`) what every one of them shares. */
type SureOf<N extends FlowNodeMap, A> = A extends { readonly any: readonly (infer D extends keyof N & string)[] }
  ? ((D extends unknown ? (x: D | N[D]['sure']) => void : never) extends (x: infer S) => void ? S & string : never)
  : DepsOf<A> extends infer D extends keyof N & string
    ? D | N[D]['sure']
    : never;

type AncOf<N extends FlowNodeMap, A> = DepsOf<A> extends infer D extends keyof N & string ? D | N[D]['anc'] : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The variables a node sees: the flow's input, its ancestors' outputs (present when certain). */
export type FlowVariables<I, N extends FlowNodeMap, A> = Simplify<
  { readonly input: I } & { readonly [K in SureOf<N, A> & keyof N]: N[K]['out'] } & {
    readonly [K in Exclude<AncOf<N, A>, SureOf<N, A>> & keyof N]?: N[K]['out'];
  }
>;

/** The node map with one more node. */
export type FlowWithNode<N extends FlowNodeMap, Id extends string, Out, A> = N & { [K in Id]: { out: Out; sure: SureOf<N, A>; anc: AncOf<N, A> } };

/** `after` when it is left out: the node added just before (none for the first node). */
export type FlowDefaultAfter<Last extends string> = [Last] extends [never] ? readonly [] : Last;

/** An id not used yet (and not `input`, which names the flow's input). */
export type FlowNewId<Id extends string, N extends FlowNodeMap> = Id extends keyof N | 'input' ? never : Id;

/** A string holding at least one `{{placeholder}}`. */
export type FlowTemplate = `${string}{{${string}}}${string}`;

/** Tool arguments: each a value of its type, or a template filled from the variables. */
export type FlowTemplateArgs<Args> = Args extends object ? { [K in keyof Args]: Args[K] | FlowTemplate } : Args;

/** What an agent node outputs: its structured object, or its reply text. */
export type FlowAgentOutput<A, S> = S extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<S>
  : A extends { readonly __types?: { readonly output: infer O } }
    ? unknown extends O
      ? string
      : O
    : string;

// ---------------------------------------------------------------------------------------------
// Node specs (what the builder methods take).
// ---------------------------------------------------------------------------------------------

export interface FlowAgentStep<V, A extends FlowNodeAgent<any> = FlowNodeAgent<any>, S extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined> {
  agent: A;
  /** The agent's input: a template (`'Classify: {{input.message}}'`) or a function of the variables. */
  input: string | ((vars: V, ctx: FlowNodeContext) => AgentInput | Promise<AgentInput>);
  /** The reply must be JSON matching this schema (the agent is told so); its parsed value is the output. */
  output?: S;
}

export interface FlowToolStep<V, T extends ToolDescriptor = ToolDescriptor> {
  tool: T;
  /** The arguments: values and templates (a template that is one placeholder keeps the value's type), or a function. */
  args: FlowTemplateArgs<ToolInput<T>> | ((vars: V, ctx: FlowNodeContext) => ToolInput<T> | Promise<ToolInput<T>>);
}

export interface FlowFunctionStep<V, R = unknown> {
  run: (vars: V, ctx: FlowNodeContext) => R | Promise<R>;
}

/** One piece of work inside a `parallel` node. */
export type FlowBranchStep<V> = FlowAgentStep<V, FlowNodeAgent<any>, StandardSchemaV1 | undefined> | FlowToolStep<V, any> | FlowFunctionStep<V, unknown>;

export type FlowBranchOutput<B> = B extends { agent: infer A; output?: infer S }
  ? FlowAgentOutput<A, S>
  : B extends { tool: infer T }
    ? ToolOutput<T>
    : B extends { run: (...args: any[]) => infer R }
      ? Awaited<R>
      : never;

export interface FlowNodeOptions<A> {
  /** When the node runs; default: after the node added just before it. */
  after?: A;
  /** A name for people (UIs); default: the id. */
  label?: string;
}

/** A condition: an expression (see "Flow expressions") or a function of the variables. */
export type FlowCondition<V> = string | ((vars: V) => boolean);

export interface FlowOneOfBranch<V, T extends string = string> {
  when: FlowCondition<V>;
  /** The node this branch runs: it must run after the `oneOf`. */
  then: T;
}

/** How an approval node ended. */
export interface FlowApprovalOutput {
  approved: boolean;
  note?: string;
}

export interface FlowLoopOutput {
  /** How many passes the loop's body made. */
  iterations: number;
  /** True when the loop stopped at `max` with its condition still true. */
  exhausted: boolean;
}

// ---------------------------------------------------------------------------------------------
// Running.
// ---------------------------------------------------------------------------------------------

/** Why a flow run ended (a failure rejects instead). */
export type FlowFinishReason = 'stop' | 'awaiting-approval' | 'aborted';

export interface FlowRunOptions {
  signal?: AbortSignal;
  /** Checkpoint the run under this session (with `store`): a crash then resumes it without re-running finished nodes. */
  sessionId?: string;
  /** Where checkpoints, approvals and the event log live (`memoryStore()`, `SqliteStore`, `PostgresStore`). Default: one memory store per process. */
  store?: AgentStore;
  /** Nodes running at once, at most (default: no limit). */
  concurrency?: number;
  /** Traces the run: an `invoke_workflow` span, a span per node pass, the agent runs under them (see docs/tracing.md). */
  traceExporter?: TraceExporter;
  /** The span the run nests under (e.g. a tool's `ctx.trace`); its exporter is used without `traceExporter`. */
  traceParent?: TraceParent;
}

export interface FlowResult<O = Record<string, unknown>> {
  runId: string;
  sessionId: string;
  finishReason: FlowFinishReason;
  /** Every node's latest output (a node that did not run has none). */
  outputs: Partial<O>;
  /** The nodes that ran, in the order they finished (a node a loop ran again appears again). */
  path: (keyof O & string)[];
  /** Every agent call of the run added up (`usage.delegated.runs` counts the calls). */
  usage: RunUsage;
  /** With `awaiting-approval`: the approval to decide (the first, when several wait). */
  approvalId?: string;
  pendingApproval?: PendingApprovalInfo;
}

/** A streaming flow run: its events (the agent protocol's, with `flow.*` events) and its result. */
export interface FlowRun<O = Record<string, unknown>> extends AsyncIterable<AgentStreamEvent> {
  readonly runId: string;
  readonly sessionId: string;
  readonly result: Promise<FlowResult<O>>;
}

/** The flow's outputs, node id to output type. */
export type FlowOutputsOf<N extends FlowNodeMap> = { [K in keyof N]: N[K]['out'] };

/**
 * The work of a forEach item. Its type parameters are inferred member by member (rather than as
 * one generic step), so the item type found from `forEach` reaches the step's variables.
 */
export type FlowEachStep<V, R, A extends FlowNodeAgent<any>, S extends StandardSchemaV1 | undefined, TT extends ToolDescriptor> = FlowFunctionStep<V, R> | FlowAgentStep<V, A, S> | FlowToolStep<V, TT>;
export type FlowEachOutput<R, A, S, TT> = [R] extends [never] ? ([A] extends [never] ? ToolOutput<TT> : FlowAgentOutput<A, S>) : Awaited<R>;
