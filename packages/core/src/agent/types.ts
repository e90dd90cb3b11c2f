import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { AgentListenerEvent, AgentStreamEvent, FinishReason, PendingApprovalInfo } from '../events/types.js';
import type { AgentInput, Message } from '../messages.js';
import type { GenerateResult, LLMProvider } from '../providers/types.js';
import type { SandboxAdapter, ToolArtifact, ToolDescriptor, ToolErrorResult } from '../tools/types.js';
import type { RunUsage, StepUsage } from '../usage/types.js';
import type { AgentHook, PermissionDecisionRecord, PermissionRule } from '../hooks/types.js';
import type { AgentStore } from '../stores/types.js';
import type { TraceExporter, TraceParent } from '../tracing/types.js';
import type { AgentGuardrails, GuardrailInfo } from '../guardrails/types.js';
import type { ApprovalStore } from './approval-store.js';
import type { AgentMcpOptions } from './mcp-servers.js';
import type { Agent } from './create-agent.js';
import type { SubagentsOption } from './subagents/catalog.js';
import type { SubagentRef } from './subagents/types.js';

/** What per-run config functions receive. */
export interface RunConfigContext {
  sessionId?: string;
  /** The run's user input (`[]` for a run resumed from a crash checkpoint). */
  input: AgentInput;
  metadata?: Record<string, unknown>;
}

/** A static value or a function of the run, resolved once when a run (or session turn) starts. */
export type PerRun<T> = T | ((ctx: RunConfigContext) => T | Promise<T>);

/** Tools as `createAgent()` accepts them: defined tools, or descriptors keyed by the name the agent uses. */
export type AgentTools = readonly ToolDescriptor[] | Readonly<Record<string, ToolDescriptor>>;

export type ToolConcurrency = number | 'unbounded';

/** A call waiting for a decision, as `approve` and `approvals.list()` see it. */
export interface ApprovalRequest extends PendingApprovalInfo {
  sessionId: string;
  runId: string;
}

/** `approve(call)`: `true` runs the call, `false` rejects it, a string rejects it with that note. */
export type ApproveFn = (call: ApprovalRequest) => boolean | string | Promise<boolean | string>;

/** The result of a finished tool call, as `onToolResult` and `ExecutionResult.toolCalls` see it. */
export interface ToolCallRecord {
  toolCallId: string;
  toolName: string;
  args: unknown;
  result: unknown;
  isError: boolean;
  error?: ToolErrorResult;
  artifacts?: ToolArtifact[];
  replacedByHook?: string;
  /** Set when a sub-agent made the call (`onToolResult`; the run's own `toolCalls` are the lead's). */
  subagent?: SubagentRef;
}

export interface AgentCallbacks {
  /** Listener events: `text-complete`, `tool-call`, `tool-result`, `approval-requested`, `finish`. */
  onEvent?: (event: AgentListenerEvent) => void;
  onToolCall?: (call: { toolCallId: string; toolName: string; args: unknown; subagent?: SubagentRef }) => void;
  onToolResult?: (record: ToolCallRecord) => void;
  onLLMResponse?: (response: GenerateResult, step: number, usage: StepUsage) => void;
  onPermissionDecision?: (decision: PermissionDecisionRecord) => void;
}

/** Options shared by `createAgent()` and `AgentExecutor.execute()`. */
export interface LoopOptions extends AgentCallbacks {
  /** Model calls allowed per run (default 10). */
  maxSteps?: number;
  /** Tool calls of one turn in flight at once (default `'unbounded'`). */
  toolConcurrency?: ToolConcurrency;
  temperature?: number;
  maxTokens?: number;
  hooks?: readonly AgentHook[] | { list(): readonly AgentHook[] };
  permissions?: readonly PermissionRule[];
  /** Structured output: the final reply must be JSON matching this schema. */
  output?: StandardSchemaV1;
  /** Where `requiresSandbox` tools run (through their `sandboxExecute`). */
  sandbox?: SandboxAdapter;
  /**
   * Agents the run may delegate to: `{ researcher, writer }` (agents from `createAgent()` with a
   * `description`), or a catalog `{ list(ctx), resolve(name, ctx) }`. The agent gets one `task`
   * tool (`{ subagent, prompt }`) and a listing of them in its prompt.
   */
  subagents?: SubagentsOption<Agent<any, any>>;
  /** How deep sub-agents may nest: 1 (the default) lets this agent delegate, and its sub-agents not. */
  maxSubagentDepth?: number;
  /**
   * Traces every run: an `invoke_agent` span per run (and per continuation after a pause), `chat`
   * per model call, `execute_tool` per tool call (see docs/tracing.md). E.g. `createOtelTraceExporter()`
   * from `@lousho/build-ai-agent/otel`.
   */
  traceExporter?: TraceExporter;
  /**
   * Checks on the input (before any model call), on each tool call (after permission rules, before
   * `needsApproval`) and on the final reply. A block ends the run with `finishReason: 'guardrail'`.
   */
  guardrails?: AgentGuardrails;
}

export interface CreateAgentConfig<TOutput extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined>
  extends Omit<LoopOptions, 'output'>,
    AgentMcpOptions {
  name?: string;
  description?: string;
  /** The provider that runs the model. */
  provider?: LLMProvider;
  /** The model id (sent to the provider), or a function of the run. */
  model?: PerRun<string>;
  /** System instructions, or a function of the run. `prompt` is an alias. */
  instructions?: PerRun<string>;
  prompt?: PerRun<string>;
  tools?: PerRun<AgentTools>;
  /** Where paused approvals are kept (default: `store.approvals`, else a per-agent `InMemoryApprovalStore`). */
  approvalStore?: ApprovalStore;
  /**
   * Where sessions, checkpoints and approvals live (default: `memoryStore()`). A `SqliteStore`
   * (from `/sqlite`) makes sessions and paused approvals survive a restart, and runs resumable.
   */
  store?: AgentStore;
  /** Decide approvals in code instead of pausing `send()`. */
  approve?: ApproveFn;
  /** Give the agent the `ask_question` tool. */
  askQuestion?: boolean;
  output?: TOutput;
}

export interface RunOptions {
  signal?: AbortSignal;
  sessionId?: string;
  metadata?: Record<string, unknown>;
  /**
   * The span this run nests under, with its exporter (used when the agent has no `traceExporter`
   * of its own): a tool's `ctx.trace` for a run inside a tool call, or the `trace` of `withSpan()`.
   */
  traceParent?: TraceParent;
}

export interface ExecutionResult<TObject = unknown> {
  runId: string;
  sessionId: string;
  /** The final assistant text of the run (raw JSON with `output`). */
  text: string;
  /** The whole transcript after the run (no system prompt). */
  messages: Message[];
  /** Model calls taken, including steps carried over from before an approval pause. */
  steps: number;
  finishReason: FinishReason;
  usage: RunUsage;
  stepUsage: StepUsage[];
  /** Tool calls finished in this run, in the model's call order. */
  toolCalls: ToolCallRecord[];
  /** Set when the run paused (`finishReason: 'awaiting-approval'`). */
  approvalId?: string;
  pendingApproval?: PendingApprovalInfo;
  /** With `output`: the validated object. */
  object?: TObject;
  outputError?: { message: string; issues: { path: string; message: string }[] };
  /** Set when a guardrail ended the run (`finishReason: 'guardrail'`): which, at what stage, and why. */
  guardrail?: GuardrailInfo;
}

/** A streaming run: iterate its events; `result` settles when the run ends. */
export interface AgentRun<TObject = unknown> extends AsyncIterable<AgentStreamEvent> {
  readonly runId: string;
  readonly sessionId: string;
  readonly result: Promise<ExecutionResult<TObject>>;
}
