import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { checkOptionKeys, type OptionKeys, type PlannedOptions } from '@lousho/protocol';
import type { RetryOptions } from '@lousho/providers';
import type { ExecuteOptions, ResumeAfterApprovalOptions } from './execute-options.js';
import type { CreateAgentConfig } from './types.js';
import type { RunOptions } from '@lousho/protocol';

/*
 * The options each entry point knows, one list per options type. Each list is typed
 * `Record<keyof Type, true>`: the compiler fails when the type gains a key the list lacks, or the list
 * names one the type does not have. An option another part of the SDK adds (sub-agents, guardrails,
 * ...) is accepted once its key is in the type and here; until it is built, a documented option is
 * refused as "not built yet" (the planned lists), never silently ignored.
 */

const CALLBACK_KEYS = { onEvent: true, onToolCall: true, onToolResult: true, onLLMResponse: true, onPermissionDecision: true } as const;

const LOOP_KEYS = {
  ...CALLBACK_KEYS,
  maxSteps: true,
  toolConcurrency: true,
  temperature: true,
  maxTokens: true,
  hooks: true,
  permissions: true,
  output: true,
  sandbox: true,
  limits: true,
  traceExporter: true,
  guardrails: true,
  subagents: true,
  maxSubagentDepth: true,
} as const;

export const CREATE_AGENT_OPTION_KEYS: OptionKeys<CreateAgentConfig> = {
  ...LOOP_KEYS,
  mcpServers: true,
  mcpOptions: true,
  mcpConnector: true,
  name: true,
  description: true,
  provider: true,
  model: true,
  instructions: true,
  prompt: true,
  tools: true,
  approvalStore: true,
  store: true,
  files: true,
  approve: true,
  askQuestion: true,
  skills: true,
  memory: true,
  compaction: true,
  fallbackModels: true,
  retry: true,
  projectInstructions: true,
};

export const EXECUTE_OPTION_KEYS: OptionKeys<ExecuteOptions> = {
  ...LOOP_KEYS,
  agent: true,
  input: true,
  provider: true,
  toolRegistry: true,
  messages: true,
  sessionId: true,
  signal: true,
  approvalStore: true,
  checkpointStore: true,
  approve: true,
  initialSteps: true,
  metadata: true,
  skills: true,
  traceParent: true,
};

export const RESUME_OPTION_KEYS: OptionKeys<ResumeAfterApprovalOptions> = (() => {
  const { input: _input, messages: _messages, initialSteps: _initialSteps, ...rest } = EXECUTE_OPTION_KEYS;
  return { ...rest, approvalId: true, approved: true, note: true, answer: true };
})();

export const RUN_OPTION_KEYS: OptionKeys<RunOptions> = { signal: true, sessionId: true, metadata: true, traceParent: true };

export const RETRY_OPTION_KEYS: OptionKeys<RetryOptions> = {
  retries: true,
  minDelayMs: true,
  maxDelayMs: true,
  jitter: true,
  maxRetryAfterMs: true,
  shouldRetry: true,
  onRetry: true,
  random: true,
};

/** Documented options of `createAgent()` that this version does not build yet, and where the docs describe them (none today). */
export const PLANNED_CREATE_AGENT_OPTIONS = {} as const satisfies PlannedOptions;

/** Documented options of `AgentExecutor.execute()` that this version does not build yet. */
export const PLANNED_EXECUTE_OPTIONS = PLANNED_CREATE_AGENT_OPTIONS satisfies PlannedOptions;

export function checkCreateAgentOptions(config: unknown): void {
  checkOptionKeys('createAgent()', config, CREATE_AGENT_OPTION_KEYS, PLANNED_CREATE_AGENT_OPTIONS);
}

export function checkExecuteOptions(where: 'AgentExecutor.execute()' | 'AgentExecutor.stream()', options: unknown): void {
  checkOptionKeys(where, options, EXECUTE_OPTION_KEYS, PLANNED_EXECUTE_OPTIONS);
}

export function checkResumeOptions(options: unknown): void {
  checkOptionKeys('resumeAfterApproval()', options, RESUME_OPTION_KEYS, PLANNED_EXECUTE_OPTIONS);
}

/** `send()` / `stream()` options; a session's own calls take no `sessionId` (the session sets it). */
export function checkRunOptions(where: string, options: unknown, session = false): void {
  checkOptionKeys(where, options, session ? SESSION_RUN_OPTION_KEYS : RUN_OPTION_KEYS);
}

const SESSION_RUN_OPTION_KEYS: OptionKeys<Omit<RunOptions, 'sessionId'>> = { signal: true, metadata: true, traceParent: true };

export function checkRetryOptions(retry: unknown): void {
  if (retry === true || retry === false || retry === undefined) return;
  if (typeof retry !== 'object' || retry === null || Array.isArray(retry)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `retry must be true, false or withRetry options, got ${JSON.stringify(retry) ?? String(retry)}.`, { hint: 'e.g. retry: { retries: 3 }' });
  }
  checkOptionKeys('retry', retry, RETRY_OPTION_KEYS);
}
