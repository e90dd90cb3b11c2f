import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { AgentListenerEvent } from '@lousho/protocol';
import type { GenerateResult, LLMProvider } from '@lousho/protocol';
import type { ToolDescriptor } from '@lousho/protocol';
import type { SandboxAdapter } from '@lousho/protocol';
import type { StepUsage } from '@lousho/protocol';
import type { AgentHook, PermissionDecisionRecord, PermissionRule } from '@lousho/protocol';
import type { AgentStore, ApprovalStore } from '@lousho/protocol';
import type { TraceExporter } from '@lousho/protocol';
import type { AgentGuardrails } from '@lousho/protocol';
import type { AgentMcpOptions } from './mcp-servers.js';
import type { CompactionOptions } from '../compaction/types.js';
import type { Memory } from '../memory/types.js';
import type { RetryOptions } from '@lousho/providers';
import type { Skill } from '@lousho/protocol';
import type { RunLimits } from '@lousho/protocol';
import type { Agent, ApprovalRequest } from '@lousho/protocol';
import type { SubagentsOption } from './subagents-option.js';
import type { SubagentRef } from '@lousho/protocol';
import type { PerRun, ToolCallRecord } from '@lousho/protocol';
import type { FileStore } from '@lousho/protocol';

/** Tools as `createAgent()` accepts them: defined tools, or descriptors keyed by the name the agent uses. */
export type AgentTools = readonly ToolDescriptor[] | Readonly<Record<string, ToolDescriptor>>;

/**
 * How many tool calls of one model turn may run at once: a positive integer, or `'unbounded'` (the
 * default). `1` runs them strictly one after another. Results reach the transcript in call order
 * whatever the setting.
 */
export type ToolConcurrency = number | 'unbounded';

/** `approve(call)`: `true` runs the call, `false` rejects it, a string rejects it with that note. */
export type ApproveFn = (call: ApprovalRequest) => boolean | string | Promise<boolean | string>;

/**
 * Observers of a run, for logging and metrics. They are called synchronously as the run goes and
 * cannot change it (use hooks for that); a callback that throws rejects the run.
 */
export interface AgentCallbacks {
  /** Listener events: `text-complete`, `tool-call`, `tool-result`, `approval-requested`, `finish`. */
  onEvent?: (event: AgentListenerEvent) => void;
  /** A tool call is about to start (after argument validation), with its parsed arguments (and the sub-agent that makes it, if any). */
  onToolCall?: (call: { toolCallId: string; toolName: string; args: unknown; subagent?: SubagentRef }) => void;
  /** A tool call finished, with its result or its structured error (`isError`). */
  onToolResult?: (record: ToolCallRecord) => void;
  /** A model call answered: its result, the step number (1-based) and that call's usage. */
  onLLMResponse?: (response: GenerateResult, step: number, usage: StepUsage) => void;
  /** A permission rule (or a hook's deny) decided a tool call: which rule, and what it decided. */
  onPermissionDecision?: (decision: PermissionDecisionRecord) => void;
}

/** Options shared by `createAgent()` and `AgentExecutor.execute()`. */
export interface LoopOptions extends AgentCallbacks {
  /** Model calls allowed per run (default 10). */
  maxSteps?: number;
  /** Tool calls of one turn in flight at once (default `'unbounded'`). */
  toolConcurrency?: ToolConcurrency;
  /** Sampling temperature passed to the provider (the provider's default when unset). */
  temperature?: number;
  /** Cap on the tokens of each model reply, passed to the provider. */
  maxTokens?: number;
  /** Hooks run around tool calls and model calls: a list, or a `HookRegistry`. */
  hooks?:
    | readonly AgentHook[]
    | {
        /** The hooks, in the order they run. */
        list(): readonly AgentHook[];
      };
  /** Allow / deny / ask rules matched against each tool call before `needsApproval`. */
  permissions?: readonly PermissionRule[];
  /** Structured output: the final reply must be JSON matching this schema. */
  output?: StandardSchemaV1;
  /** Where `requiresSandbox` tools run (through their `sandboxExecute`). */
  sandbox?: SandboxAdapter;
  /**
   * Budgets of a run: over one, the run ends with `finishReason: 'budget-exceeded'` and
   * `result.budget`. Checked after each model call and each tool batch.
   */
  limits?: RunLimits;
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

/** Project instructions (e.g. an `AGENTS.md`): the text, or a file read when the run's config is resolved. */
export type ProjectInstructions = string | { file: string };

/**
 * What `createAgent()` takes. Everything is optional: with no `provider`, the `model` string is
 * resolved from the environment (see `resolveProvider()`).
 */
export interface CreateAgentConfig<TOutput extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined>
  extends Omit<LoopOptions, 'output'>,
    AgentMcpOptions {
  /** A name for traces and logs (`invoke_agent <name>` spans). */
  name?: string;
  /** What the agent does, for the agents and people that pick it. */
  description?: string;
  /** The provider that runs the model. */
  provider?: LLMProvider;
  /** The model id (sent to the provider), or a function of the run. */
  model?: PerRun<string>;
  /** System instructions, or a function of the run. `prompt` is an alias. */
  instructions?: PerRun<string>;
  /** Alias of `instructions`. */
  prompt?: PerRun<string>;
  /** The tools the model may call: defined tools, descriptors by name, or a function of the run. */
  tools?: PerRun<AgentTools>;
  /** Where paused approvals are kept (default: `store.approvals`, else a per-agent `InMemoryApprovalStore`). */
  approvalStore?: ApprovalStore;
  /**
   * Where sessions, checkpoints and approvals live (default: `memoryStore()`). A `SqliteStore`
   * (from `/sqlite`) makes sessions and paused approvals survive a restart, and runs resumable.
   */
  store?: AgentStore;
  /**
   * Where uploaded attachments live (`POST /sessions/:id/files`, `client.upload()`): a
   * `FileSystemFileStore` (`@lousho/node/node`) on a server, `PostgresFileStore` for several
   * processes, `MemoryFileStore` in tests. Messages keep references (`attachment` parts); the
   * model gets the bytes. Deleting a session deletes its files. Without it, uploads answer 501.
   */
  files?: FileStore;
  /** Decide approvals in code instead of pausing `send()`. */
  approve?: ApproveFn;
  /** Give the agent the `ask_question` tool. */
  askQuestion?: boolean;
  /** Structured output: `send()` resolves with the reply validated as `result.object`. */
  output?: TOutput;
  /** Skills: names and descriptions go in the system prompt; the model loads a body with `load_skill`. */
  skills?: PerRun<readonly Skill[]>;
  /** Memories kept across conversations (from `defineMemory()`): recalled into the system prompt, with `remember_*` / `recall_*` tools. */
  memory?: readonly Memory[];
  /** Compact the transcript before model calls that near the context window (`true`: the defaults). */
  compaction?: boolean | CompactionOptions;
  /** Model ids tried in order when the provider fails (model strings `provider/model` when the agent was made from one). */
  fallbackModels?: PerRun<readonly string[]>;
  /** Retry transient provider failures (`withRetry` options; `true` for the defaults). */
  retry?: PerRun<RetryOptions | boolean>;
  /** Appended to the system prompt: a string, or `{ file }` such as an `AGENTS.md` (read in Node). */
  projectInstructions?: PerRun<ProjectInstructions>;
}
