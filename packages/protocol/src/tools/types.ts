import type { JSONSchema } from '../contracts/providers.js';
import type { SandboxAdapter } from '../contracts/sandbox.js';
import type { ToolSchema, ToolExecutionContext, ToolArtifact } from '../contracts/tools.js';
// tools/builtin (and its tests' helpers.ts) take these from here until it moves to its own package.
export type { ToolExecutionContext };
export type { ToolErrorResult } from '../contracts/tools.js';

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
   * `'client'` marks a tool that runs in the browser (`defineTool()` without `execute`): the run
   * always pauses on it, and the result the page sends (`approvals.submitToolResult()`, checked
   * against `outputSchema`) becomes its result.
   */
  approvalKind?: 'tool' | 'question' | 'client';
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
