import type { Message } from './messages.js';

/** Where a guardrail runs: on the user's input, on the final reply, or on each tool call. */
export type GuardrailStage = 'input' | 'output' | 'tool';

interface GuardrailContextBase {
  /** The run being checked (absent when `runGuardrails` is called by hand). */
  runId?: string;
  sessionId?: string;
}

/** An input guardrail sees the new user input of the run, before any model call. */
export interface InputGuardrailContext extends GuardrailContextBase {
  stage: 'input';
  /** The text of the input (the text parts of its messages, joined by new lines). */
  text: string;
  /** The input messages themselves. */
  messages?: readonly Message[];
}

/** An output guardrail sees the final reply of the run. */
export interface OutputGuardrailContext extends GuardrailContextBase {
  stage: 'output';
  text: string;
}

/** A record of a tool call an earlier step of the run made (what `createDiffSizeGuardrail` counts). */
export interface GuardrailToolCall {
  toolName: string;
  args: unknown;
  isError: boolean;
}

/** A tool guardrail sees each call after validation, hooks and permission rules, before `needsApproval`. */
export interface ToolGuardrailContext extends GuardrailContextBase {
  stage: 'tool';
  toolName: string;
  toolCallId?: string;
  /** The parsed arguments (after any `preToolCall` hook rewrite). */
  args: unknown;
  /** The calls this run finished before this one, in the order they finished. */
  previousCalls?: readonly GuardrailToolCall[];
}

/** What a guardrail's `check` is given: the input, the final reply or one tool call, by stage. */
export type GuardrailContext = InputGuardrailContext | OutputGuardrailContext | ToolGuardrailContext;

/** What a check returns to stop something: `{ block: 'why' }`. Anything else lets it through. */
export interface GuardrailVerdict {
  block: string;
  /** A stable code for why, when the guardrail gives one (the command guardrail's `LOUSHO_COMMAND_*`). */
  code?: string;
}

/** What `check` returns: a verdict that blocks, or nothing to let the value through. */
export type GuardrailResult = GuardrailVerdict | undefined | void;

/**
 * A named check. `check(ctx)` returns `{ block: reason }` to stop, or nothing to let it through.
 * A check that throws fails the run (a guardrail never passes by accident).
 */
export interface Guardrail {
  name: string;
  /** Looks at the value of its stage; returns a verdict to block it, or nothing. */
  check(ctx: GuardrailContext): GuardrailResult | Promise<GuardrailResult>;
  /**
   * For tool guardrails: `'end-run'` (the default) ends the run with `finishReason: 'guardrail'`;
   * `'deny-call'` refuses only this call (a `denied` tool error the model sees) and the run goes on.
   */
  onBlock?: 'end-run' | 'deny-call';
}

/** `createAgent({ guardrails })`: the guardrails of each stage, run in order; the first block wins. */
export interface AgentGuardrails {
  input?: readonly Guardrail[];
  output?: readonly Guardrail[];
  tool?: readonly Guardrail[];
}

/** Which guardrail blocked, where, and why: `result.guardrail` and `run.done`'s `guardrail`. */
export interface GuardrailInfo {
  name: string;
  stage: GuardrailStage;
  reason: string;
}

/** What `runGuardrails` returns for a block: the info, and how the guardrail asked to be handled. */
export interface GuardrailBlock extends GuardrailInfo {
  onBlock: 'end-run' | 'deny-call';
}
