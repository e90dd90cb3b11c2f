// @lousho/flows: multi-step workflow graphs on Lousho agents, and the safe expression language they use.
export { FlowBuilder } from './builder.js';
export { Flow, type FlowNodeSummary } from './flow.js';
export { FlowExecutor, type FlowContinueOptions, type FlowDecision } from './executor.js';
export { createFlowAgent, type FlowAgent, type FlowAgentOptions } from './flow-agent.js';
export { FlowDefinitionError, FlowNodeError, FLOW_ERROR_CODES } from './errors.js';
export { MAX_LOOP_PASSES } from './graph.js';
export {
  evaluateExpression,
  ExpressionError,
  SUPPORTED_EXPRESSION_FORMS,
  MAX_EXPRESSION_LENGTH,
  MAX_EXPRESSION_DEPTH,
  type ExpressionVariables,
} from './expression/index.js';
export { renderTemplate } from './expression/template.js';
// The types the builder's signatures are made of (so a flow's inferred type can be named anywhere).
export type {
  FlowNodeKind,
  FlowNodeTypeInfo,
  FlowNodeMap,
  FlowWithNode,
  FlowDefaultAfter,
  FlowNewId,
  FlowTemplateArgs,
  FlowAgentOutput,
  FlowBranchOutput,
  FlowOutputsOf,
  FlowEachStep,
  FlowEachOutput,
  FlowNodeAgent,
  FlowNodeContext,
  FlowAfter,
  FlowVariables,
  FlowTemplate,
  FlowAgentStep,
  FlowToolStep,
  FlowFunctionStep,
  FlowBranchStep,
  FlowNodeOptions,
  FlowCondition,
  FlowOneOfBranch,
  FlowApprovalOutput,
  FlowLoopOutput,
  FlowFinishReason,
  FlowRunOptions,
  FlowResult,
  FlowRun,
} from './types.js';
