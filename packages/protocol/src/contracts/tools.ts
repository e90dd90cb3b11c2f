import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Message } from './messages.js';
import type { TraceParent } from './tracing.js';

/**
 * Any schema a tool accepts: zod 4, zod 3 (>= 3.24) and any other Standard Schema.
 * All of them implement `~standard`, which is how arguments are validated.
 */
export type ToolSchema<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output>;

/** Passed to every `execute(args, ctx)`, on every path that runs a tool. */
export interface ToolExecutionContext {
  /** The model's id for this call; stable when the call is re-run after a crash. */
  toolCallId: string;
  /** Read-only copy of the transcript the model saw before the call (no system prompt, not the calling turn). */
  messages: readonly Message[];
  /** The run's signal, when the run has one. */
  abortSignal?: AbortSignal;
  /** Reserved: the executor does not set it yet. */
  sessionId?: string;
  /**
   * Reports progress of a long-running call to the UI (a `tool.progress` event). Any JSON value,
   * e.g. `{ done: 3, total: 10, message: 'Fetching page 3' }`. Never reaches the model. A no-op on
   * paths without a UI.
   */
  reportProgress?: (progress: unknown) => void;
  /**
   * With tracing: the call's `execute_tool` span and its exporter. Pass it on so nested work nests
   * under the call: `agent.send(prompt, { traceParent: ctx.trace })`, or `withSpan(ctx.trace, name, fn)`.
   */
  trace?: TraceParent;
}

/** Data a tool result carries for the application and UI, never sent to the model. */
export interface ToolArtifact {
  type: string;
  data: unknown;
  mimeType?: string;
  title?: string;
}

/** Why a tool call failed (the `kind` of its error result); lousho-tools.md lists when each happens. */
export type ToolErrorKind =
  | 'execution'
  | 'validation'
  | 'not-found'
  | 'rejected'
  | 'not-run'
  | 'mcp'
  | 'sandbox'
  | 'denied'
  | 'cancelled'
  | 'output-validation';

/** One way the model's arguments missed the tool's schema. */
export interface ToolValidationIssue {
  /** Where, as a dotted path (`to`, `items.0.id`); empty for the whole object. */
  path: string;
  /** What is wrong there, as the schema library says it. */
  message: string;
}

/** The one shape every failed tool call has, as the model and the UI see it. */
export interface ToolErrorResult {
  error: string;
  toolName: string;
  message: string;
  kind: ToolErrorKind;
  issues?: ToolValidationIssue[];
  note?: string;
  reason?: string;
}
