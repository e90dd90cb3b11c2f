import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { AgentInput, ToolDescriptor } from '@lousho/core';
import type { FlowNodeAgent, FlowNodeContext, FlowNodeKind } from './types.js';

/** Variables as the runtime sees them (the types live on the builder). */
export type Vars = Record<string, unknown>;

export type RuntimeCondition = string | ((vars: Vars) => boolean);

/** A unit of work: what agent, tool and function nodes (and each branch of a parallel node) run. */
export type Work =
  | { kind: 'agent'; agent: FlowNodeAgent<any>; input: string | ((vars: Vars, ctx: FlowNodeContext) => AgentInput | Promise<AgentInput>); output?: StandardSchemaV1 }
  | { kind: 'tool'; tool: ToolDescriptor; args: Record<string, unknown> | ((vars: Vars, ctx: FlowNodeContext) => unknown) }
  | { kind: 'step'; run: (vars: Vars, ctx: FlowNodeContext) => unknown };

interface Base {
  id: string;
  label?: string;
  /** Declared dependencies: all of them must run (`all`), or any one once all are settled (`any`). */
  after: { mode: 'all' | 'any'; ids: readonly string[] };
}

export type NodeDefinition = Base &
  (
    | { kind: 'agent' | 'tool' | 'step'; work: Work }
    | { kind: 'oneOf'; branches: readonly { when: RuntimeCondition; then: string }[]; otherwise?: string }
    | { kind: 'evaluator'; expression: string }
    | { kind: 'parallel'; branches?: Readonly<Record<string, Work>>; forEach?: (vars: Vars, ctx: FlowNodeContext) => unknown; each?: Work; concurrency: number }
    | { kind: 'approval'; title?: string | ((vars: Vars) => string); data?: string | ((vars: Vars) => unknown); onReject: 'skip' | 'continue' }
    | { kind: 'loop'; to: string; while: RuntimeCondition; max: number }
  );

/** Type check: every node kind has a definition shape. */
export type DefinedKinds = NodeDefinition['kind'] extends FlowNodeKind ? (FlowNodeKind extends NodeDefinition['kind'] ? true : never) : never;
