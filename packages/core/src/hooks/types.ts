import type { Message } from '../messages.js';
import type { GenerateOptions, GenerateResult } from '../providers/types.js';
import type { ToolArtifact, ToolErrorResult } from '../tools/types.js';
import type { SubagentRef } from '../agent/subagents/types.js';

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

export type PreToolCallOutcome = { deny: string } | { result: unknown } | { input: unknown } | undefined | void;
export type PostToolCallOutcome = { result: unknown } | undefined | void;

export interface GenerateHookContext {
  runId: string;
  sessionId?: string;
  step: number;
  /** The request about to be sent; a pre-hook may mutate `messages`/`system` in place. */
  request: GenerateOptions;
  /** Set when a sub-agent makes the call. */
  subagent?: SubagentRef;
}

export type HookContext = ToolCallHookContext | GenerateHookContext;

export interface AgentHook {
  name: string;
  preToolCall?(ctx: ToolCallHookContext): PreToolCallOutcome | Promise<PreToolCallOutcome>;
  postToolCall?(ctx: ToolCallHookContext, result: ToolCallHookResult): PostToolCallOutcome | Promise<PostToolCallOutcome>;
  preGenerate?(ctx: GenerateHookContext): void | Promise<void>;
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
