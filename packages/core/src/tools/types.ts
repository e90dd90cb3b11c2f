import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Message } from '../messages.js';
import type { JSONSchema } from '../providers/types.js';
import type { TraceParent } from '../tracing/types.js';
import type { SandboxAdapter } from '../contracts/sandbox.js';

export type { SandboxAdapter };

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

/** Who decides whether a call may run: `true`, or a predicate of the parsed arguments. */
export type NeedsApproval<Args> = boolean | ((args: Args, ctx: ToolExecutionContext) => boolean | Promise<boolean>);

/** Legacy `ai` v4 tool object, still built for compatibility. */
export interface LegacyAiTool {
  description?: string;
  parameters?: unknown;
  /** The `ai` v4 call shape: `(args, options)`; prefer the descriptor's own `execute`. */
  execute?: (args: any, options?: any) => unknown;
}

/**
 * A tool the registry can hold. `defineTool()` produces one; hand-written descriptors
 * (built-in, MCP, `ai` SDK tools) are accepted too.
 */
export interface ToolDescriptor<Args = any, Result = any> {
  name?: string;
  description?: string;
  displayName?: string;
  /** Arguments schema (zod 3/4 or Standard Schema). Canonical. */
  inputSchema?: ToolSchema<unknown, Args>;
  /** Ready JSON Schema of the arguments, for descriptors without a schema library. */
  parameters?: JSONSchema;
  /** Optional schema the result must match (beyond the docs: UIs rely on result shapes). */
  outputSchema?: ToolSchema<unknown, unknown>;
  /** Runs the tool with the parsed arguments; a throw becomes an `execution` error result for the model. */
  execute?: (args: Args, ctx: ToolExecutionContext) => Result | Promise<Result>;
  needsApproval?: NeedsApproval<Args>;
  /**
   * `'question'` marks a tool whose call is a question to the user (e.g. `ask_question`): the run
   * always pauses on it, and the answer given to `approvals.answer()` becomes its result.
   */
  approvalKind?: 'tool' | 'question';
  requiresSandbox?: boolean;
  /** The sandboxed path, used instead of `execute` when `requiresSandbox` is true. */
  sandboxExecute?: (args: Args, sandbox: SandboxAdapter, ctx: ToolExecutionContext) => Result | Promise<Result>;
  /** Legacy `ai` v4 tool, used only when neither `inputSchema` nor `execute` is set. */
  tool?: LegacyAiTool;
}

/** What `defineTool()` returns: a descriptor whose types carry the input and output. */
export interface DefinedTool<Name extends string = string, Args = any, Result = any> extends ToolDescriptor<Args, Result> {
  readonly name: Name;
  readonly description: string;
  readonly displayName: string;
  readonly input: ToolSchema<unknown, Args>;
  readonly inputSchema: ToolSchema<unknown, Args>;
  /** The `execute` given to `defineTool()`. */
  readonly execute: (args: Args, ctx: ToolExecutionContext) => Promise<Result> | Result;
  readonly tool: LegacyAiTool;
  /** Type-only marker so `ToolInput` / `ToolOutput` can read the types back. */
  readonly __types?: { args: Args; result: Result };
}

/** The parsed argument type of a `defineTool()` tool: `ToolInput<typeof weather>`. */
export type ToolInput<T> = T extends { __types?: { args: infer A } } ? A : never;
/** The result type of a `defineTool()` tool (awaited, artifacts unwrapped): `ToolOutput<typeof weather>`. */
export type ToolOutput<T> = T extends { __types?: { result: infer R } } ? UnwrapArtifacts<Awaited<R>> : never;

/** A result carrying artifacts, made with `withArtifacts()`. */
export interface ResultWithArtifacts<T> {
  readonly __loushoArtifacts: true;
  readonly value: T;
  readonly artifacts: ToolArtifact[];
}

/** The value of a `withArtifacts()` result, or the type itself. */
export type UnwrapArtifacts<T> = T extends ResultWithArtifacts<infer V> ? V : T;
