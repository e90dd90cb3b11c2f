// The options of `AgentExecutor` and `resumeAfterApproval()`, apart from the executor so the option-key
// checks (option-keys.ts) can name them without importing the executor that calls those checks.
import type { AgentInput, Message } from '@lousho/protocol';
import type { LLMProvider } from '@lousho/protocol';
import type { CheckpointStore, ApprovalStore } from '@lousho/protocol';
import type { TraceParent } from '@lousho/protocol';
import type { Skill } from '@lousho/protocol';
import type { ToolRegistry } from '../tools/registry.js';
import type { AgentConfig } from './agent-config.js';
import type { ApproveFn, LoopOptions } from './types.js';

/** What `AgentExecutor.execute()` and `stream()` take: the agent's config, the input, the provider, and the loop's options. */
export interface ExecuteOptions extends LoopOptions {
  agent: AgentConfig;
  input: AgentInput;
  provider: LLMProvider;
  /** Where the tools named by `agent.tools` are looked up. */
  toolRegistry?: ToolRegistry;
  /** Earlier conversation to continue (no system prompt). */
  messages?: Message[];
  sessionId?: string;
  signal?: AbortSignal;
  /** Where a pause is kept (default: a process-wide in-memory store). */
  approvalStore?: ApprovalStore;
  /**
   * With `sessionId`: where the session's transcript and run state are checkpointed (after every
   * model response, tool result and pause). `execute()` again with the same `sessionId` resumes an
   * interrupted run, continues a finished conversation with the new input, or throws
   * `SessionAwaitingApprovalError` while an approval is pending. E.g. `memoryStore().checkpoints`
   * or `new SqliteStore(file).checkpoints`.
   */
  checkpointStore?: CheckpointStore;
  approve?: ApproveFn;
  /** Steps already taken by an earlier leg of this run; they count against `maxSteps`. */
  initialSteps?: number;
  metadata?: Record<string, unknown>;
  /** Skills: names and descriptions go in the system prompt; the model loads a body with `load_skill`. */
  skills?: readonly Skill[];
  /** The span this run nests under (e.g. a tool's `ctx.trace`); its exporter is used without `traceExporter`. */
  traceParent?: TraceParent;
}

/** What `resumeAfterApproval()` takes: the run's `execute()` options and the decision (`approved` with an optional `note`, or the `answer` to a question). */
export type ResumeAfterApprovalOptions = Omit<ExecuteOptions, 'input' | 'messages' | 'initialSteps'> & {
  approvalId: string;
} & ({ approved: boolean; note?: string; answer?: undefined } | { answer: string; approved?: undefined; note?: undefined });
