import { ERROR_CODES, SDKError } from '@lousho/core';

/** Stable codes of the flow errors (the same values as in `ERROR_CODES`, the one table of every code). */
export const FLOW_ERROR_CODES = {
  /** The flow's graph is not valid (`build()`): `error.node` names the node. */
  LOUSHO_FLOW_INVALID: ERROR_CODES.LOUSHO_FLOW_INVALID,
  /** A node failed; `error.node` names it and `error.cause` is what it threw. */
  LOUSHO_FLOW_NODE_FAILED: ERROR_CODES.LOUSHO_FLOW_NODE_FAILED,
  /** An evaluator node's expression could not be evaluated; `error.cause` is the `ExpressionError`. */
  LOUSHO_FLOW_EXPRESSION_FAILED: ERROR_CODES.LOUSHO_FLOW_EXPRESSION_FAILED,
  /** An agent node's reply did not match its `output` schema. */
  LOUSHO_FLOW_OUTPUT_INVALID: ERROR_CODES.LOUSHO_FLOW_OUTPUT_INVALID,
  /** The session's checkpoint belongs to another flow, or to a flow whose nodes changed. */
  LOUSHO_FLOW_CHECKPOINT_MISMATCH: ERROR_CODES.LOUSHO_FLOW_CHECKPOINT_MISMATCH,
  /** The session's latest run was interrupted and the new input differs from its input. */
  LOUSHO_FLOW_SESSION_UNFINISHED: ERROR_CODES.LOUSHO_FLOW_SESSION_UNFINISHED,
} as const;

/** A flow whose graph cannot run, found by `build()`. */
export class FlowDefinitionError extends SDKError {
  /** The node the problem is about (or the flow's name when it is about the whole flow). */
  readonly node: string;
  constructor(flow: string, node: string, message: string, hint: string) {
    super(FLOW_ERROR_CODES.LOUSHO_FLOW_INVALID, `Flow '${flow}': ${message}`, { hint });
    this.name = 'FlowDefinitionError';
    this.node = node;
  }
}

/** A node failed, which failed the flow. */
export class FlowNodeError extends SDKError {
  readonly node: string;
  constructor(code: string, node: string, message: string, cause: unknown, hint = 'See error.cause for what the node threw.') {
    super(code, message, { cause, hint });
    this.name = 'FlowNodeError';
    this.node = node;
  }
}
