import type { Message } from './messages.js';
import type { GenerateOptions, GenerateResult } from './providers.js';
import type { ToolArtifact, ToolErrorResult } from './tools.js';
import type { SubagentRef } from './subagents.js';

/** What tool-call hooks see. `args` may be mutated in place by a pre-hook (legacy style). */
export interface ToolCallHookContext {
  toolName: string;
  toolCallId: string;
  args: any;
  runId: string;
  sessionId?: string;
  /** The transcript the model saw before the call (read-only). */
  messages: readonly Message[];
  /** True when the call is being re-run after a person approved it. */
  approved?: boolean;
  /** Set when the call is made by a sub-agent: which one, how deep, and the call that started it. */
  subagent?: SubagentRef;
}

/** A tool call's outcome as post-hooks see it. */
export interface ToolCallHookResult {
  result: unknown;
  isError: boolean;
  error?: ToolErrorResult;
  artifacts?: ToolArtifact[];
}

/**
 * What a `preToolCall` hook may return: nothing (go on), `{ deny }` (the call does not run; the
 * model gets a `denied` error), `{ result }` (the call does not run; this is its result) or
 * `{ input }` (run with these arguments, validated again).
 */
export type PreToolCallOutcome = { deny: string } | { result: unknown } | { input: unknown } | undefined | void;
/** What a `postToolCall` hook may return: nothing, or `{ result }` to replace what the model sees. */
export type PostToolCallOutcome = { result: unknown } | undefined | void;

/** What model-call hooks (`preGenerate`, `postGenerate`) see. */
export interface GenerateHookContext {
  runId: string;
  sessionId?: string;
  step: number;
  /** The request about to be sent; a pre-hook may mutate `messages`/`system` in place. */
  request: GenerateOptions;
  /** Set when a sub-agent makes the call. */
  subagent?: SubagentRef;
}

/** The context of any hook: a tool call's or a model call's. */
export type HookContext = ToolCallHookContext | GenerateHookContext;

/**
 * Code that runs around every tool call and model call of a run (`createAgent({ hooks })`). A hook
 * that throws rejects the run; sub-agents inherit the lead agent's hooks.
 */
export interface AgentHook {
  /** Names the hook in events, denials (`hook`) and `replacedByHook`. */
  name: string;
  /** Before a tool call runs (after argument validation, before permissions and approval): deny it, answer it, or change its input. */
  preToolCall?(ctx: ToolCallHookContext): PreToolCallOutcome | Promise<PreToolCallOutcome>;
  /** After a tool call: may replace the result the model sees (to redact or trim it). */
  postToolCall?(ctx: ToolCallHookContext, result: ToolCallHookResult): PostToolCallOutcome | Promise<PostToolCallOutcome>;
  /** Before each model call: may edit `ctx.request` (`messages`, `system`) in place. */
  preGenerate?(ctx: GenerateHookContext): void | Promise<void>;
  /** After each model call, with its result. */
  postGenerate?(ctx: GenerateHookContext, response: GenerateResult): void | Promise<void>;
}

/** A permission rule: the first rule whose `tool` matches decides. */
export interface PermissionRule {
  /**
   * A tool name, a list of names, `'*'`, a RegExp, or a predicate of the call. A `*` in a name
   * matches any characters: `'github__*'` covers every tool of the `github` MCP server.
   */
  tool: string | readonly string[] | RegExp | ((toolName: string, args: unknown) => boolean);
  /** `deny` refuses the call, `ask` pauses for a person, `allow` runs it without asking. */
  decision: 'allow' | 'deny' | 'ask';
  reason?: string;
}

/** How a tool call's permission was decided, as `onPermissionDecision` receives it. */
export interface PermissionDecisionRecord {
  toolName: string;
  toolCallId: string;
  decision: 'allow' | 'deny' | 'ask';
  reason?: string;
  /** The hook that decided, when a hook denied. */
  hook?: string;
  /** The rule that decided, when a permission rule did. */
  rule?: PermissionRule;
  /** Set when the call is a sub-agent's. */
  subagent?: SubagentRef;
  /** The guardrail that denied, when a tool guardrail did. */
  guardrail?: string;
}
