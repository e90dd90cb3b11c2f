import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { UnsequencedStreamEvent, AgentListenerEvent } from '@lousho/protocol';
import type { AgentGuardrails } from '@lousho/protocol';
import type { AgentHook, PermissionRule } from '@lousho/protocol';
import type { MemorySlot } from '../memory/slot.js';
import type { LLMProvider, ToolSpec } from '@lousho/protocol';
import type { ToolRegistry } from '../tools/registry.js';
import type { RunTracer } from '../tracing/run-tracer.js';
import type { SandboxAdapter } from '@lousho/protocol';
import type { RunSnapshot } from '@lousho/protocol';
import type { BudgetExceeded, RunLimits } from '@lousho/protocol';
import type { SubagentRef } from '@lousho/protocol';
import type { QueuedMessage } from '@lousho/protocol';
import type { AgentCallbacks, ApproveFn } from './types.js';
import type { FileStore } from '@lousho/protocol';

/** Everything the loop needs that is not part of the run's serializable state. */
export interface LoopDeps extends AgentCallbacks {
  provider: LLMProvider;
  system?: string;
  tools: ToolRegistry;
  toolSpecs: ToolSpec[];
  maxSteps: number;
  /** `Infinity` for unbounded. */
  toolConcurrency: number;
  temperature?: number;
  maxTokens?: number;
  hooks: readonly AgentHook[];
  permissions: readonly PermissionRule[];
  output?: StandardSchemaV1;
  signal?: AbortSignal;
  /** Decides approvals in code instead of pausing. */
  approve?: ApproveFn;
  sandbox?: SandboxAdapter;
  /** The run's memories, bound to their slots: recalled on the first model call. */
  memory?: readonly MemorySlot[];
  /** Budgets, checked after each model call and each tool batch. */
  limits?: RunLimits;
  /**
   * Set on a sub-agent's run: the budgets of the runs it is nested in, checked with its own (its
   * usage and its running siblings' count against them).
   */
  outerBudget?: () => BudgetExceeded | undefined;
  /** The model that answered the latest call, when it may differ from the run's (`fallbackModels`). */
  modelUsed?: () => string | undefined;
  /** The tracing stage (spans of the leg, its model calls and tool calls); absent when tracing is off. */
  tracer?: RunTracer;
  /** Input, output and tool guardrails (see stages/guardrails.ts). */
  guardrails?: Required<AgentGuardrails>;
  /** Stream events (the session numbers them). */
  emit(event: UnsequencedStreamEvent): void;
  /** Called after every model response, every recorded tool result and every pause. */
  checkpoint?(snapshot: RunSnapshot): void | Promise<void>;
  /** Set on a sub-agent's run: who it is (hook contexts, events and approvals name it). */
  subagent?: SubagentRef;
  /** Where attachment parts' bytes are read from before each model call. */
  files?: FileStore;
  /** How deep sub-agents may nest (the lead run's `maxSubagentDepth`; default 1). */
  maxSubagentDepth?: number;
  /** A lead run on a session: the steering messages waiting, taken out of its queue (stages/steer.ts). */
  takeSteered?: () => QueuedMessage[];
}

export function emitListener(deps: LoopDeps, event: AgentListenerEvent): void {
  if (!deps.onEvent) return;
  try {
    deps.onEvent(event);
  } catch {
    // Listener failures are the listener's problem; they never break a run.
  }
}
