import { ERROR_CODES, SDKError } from '../errors.js';
import type { PendingApprovalInfo } from '../events/types.js';
import type { ToolCallHookContext, ToolCallHookResult } from '../hooks/types.js';
import type { Message, ToolCall } from '../messages.js';
import { isAbortError } from '../providers/abort.js';
import { splitArtifacts } from '../tools/artifacts.js';
import { PropagatingToolError, toolErrorResult } from '../tools/errors.js';
import { validateToolSchema } from '../tools/schema.js';
import { parseToolArguments, validateToolArguments } from '../tools/validate-args.js';
import type { ToolDescriptor, ToolErrorResult, ToolExecutionContext } from '../tools/types.js';
import { checkToolGuardrails } from './guardrail-stage.js';
import { emitListener, type LoopDeps } from './loop-deps.js';
import type { RunSnapshot, SettledCall } from './run-snapshot.js';
import type { ToolCallRecord } from './types.js';
import { matchesToolName } from './tool-name-pattern.js';
import type { UsageTracker } from '../usage/tracker.js';
import { attachScope } from './loop-scope.js';
import { ChildPaused } from './subagents/child-pause.js';

/** A finished call: exactly one per tool call of a turn (what a pause keeps of one, `SettledCall`, or a delegation that paused). */
export interface ToolOutcome extends SettledCall {
  /** Set instead of a result when the call (a delegation) paused for a person: it has no result yet. */
  paused?: PendingApprovalInfo;
}

/** What preparing a call decided: run it, it already has its outcome, or it waits for a person. */
export type PreparedCall =
  | { kind: 'run'; call: ToolCall; tool: ToolDescriptor; args: unknown; ctx: ToolExecutionContext; hookCtx: ToolCallHookContext }
  | { kind: 'done'; outcome: ToolOutcome; hookCtx?: ToolCallHookContext }
  | { kind: 'pause'; call: ToolCall; approval: PendingApprovalInfo };

export interface CallScope {
  deps: LoopDeps;
  snapshot: RunSnapshot;
  /** The run's usage totals (a delegation adds its sub-agent's usage to them). */
  usage: UsageTracker;
  step: number;
  /** The transcript the model saw for this turn: `snapshot.messages` up to (not including) the assistant turn. */
  visibleLength: number;
  /** When this leg of the run started (`maxDurationMs`; a sub-agent checks its lead's budgets too). */
  legStart: number;
}

let approvalCounter = 0;
function newApprovalId(): string {
  approvalCounter = (approvalCounter + 1) % 1e9;
  return `appr_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}${approvalCounter.toString(36)}`;
}

/** A read-only view of the transcript the model saw, copied only if a tool or hook reads it. */
function lazyMessages(scope: CallScope): () => readonly Message[] {
  let copy: readonly Message[] | undefined;
  const { snapshot, visibleLength } = scope;
  return () => (copy ??= Object.freeze(snapshot.messages.slice(0, visibleLength)));
}

function executionContext(scope: CallScope, call: ToolCall, messages: () => readonly Message[]): ToolExecutionContext {
  const ctx = { toolCallId: call.id } as ToolExecutionContext;
  Object.defineProperty(ctx, 'messages', { get: messages, enumerable: true });
  if (scope.deps.signal) ctx.abortSignal = scope.deps.signal;
  ctx.reportProgress = progressReporter(scope, call);
  return attachScope(ctx, scope);
}

/** `ctx.reportProgress`: JSON-safe progress as a `tool.progress` event, until the run is stopped. */
export function progressReporter(scope: CallScope, call: ToolCall): (progress: unknown) => void {
  return (progress: unknown) => {
    if (scope.deps.signal?.aborted) return;
    scope.deps.emit({ type: 'tool.progress', toolCallId: call.id, toolName: call.name, progress: jsonSafe(progress) });
  };
}

function hookContext(scope: CallScope, call: ToolCall, args: unknown, messages: () => readonly Message[]): ToolCallHookContext {
  const ctx = { toolName: call.name, toolCallId: call.id, args, runId: scope.snapshot.runId, sessionId: scope.snapshot.sessionId } as ToolCallHookContext;
  if (scope.deps.subagent) ctx.subagent = scope.deps.subagent;
  Object.defineProperty(ctx, 'messages', { get: messages, enumerable: true });
  return ctx;
}

function errorOutcome(call: ToolCall, args: unknown, error: ToolErrorResult): ToolOutcome {
  return { call, args, result: error, isError: true, error };
}

/** Announces a call that is about to be decided or run (stream `tool.call`, listener `tool-call`, `onToolCall`). */
function announceCall(scope: CallScope, call: ToolCall, tool: ToolDescriptor | undefined, args: unknown): void {
  const { deps } = scope;
  const displayName = tool?.displayName ?? call.name;
  deps.emit({ type: 'tool.call', step: scope.step, toolCallId: call.id, toolName: call.name, displayName, args });
  emitListener(deps, { type: 'tool-call', runId: scope.snapshot.runId, toolCallId: call.id, toolName: call.name, args });
  deps.onToolCall?.({ toolCallId: call.id, toolName: call.name, args });
}

/**
 * Everything that happens to a call before it runs, in the documented order: argument validation,
 * pre-tool hooks, permission rules, tool guardrails, `needsApproval`, the pause. Runs one call at a time, in call order.
 * Throws only for propagating errors (a hook that throws, a `PropagatingToolError`).
 */
export async function prepareCall(scope: CallScope, call: ToolCall): Promise<PreparedCall> {
  const { deps } = scope;
  const tool = deps.tools.get(call.name);
  const parsed = parseToolArguments(call.arguments);
  const rawArgs = parsed.ok ? parsed.value : call.arguments;
  announceCall(scope, call, tool, rawArgs);
  const messages = lazyMessages(scope);
  if (!tool) {
    const error = toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'not-found', error: `Tool '${call.name}' is not available. Available tools: ${deps.tools.names().join(', ') || '(none)'}.` });
    return { kind: 'done', outcome: errorOutcome(call, rawArgs, error), hookCtx: hookContext(scope, call, rawArgs, messages) };
  }

  // Validation first: hooks, rules, needsApproval and execute only ever see parsed arguments.
  const validated = await validateToolArguments(tool, call.arguments, call.name);
  if (!validated.ok) return { kind: 'done', outcome: errorOutcome(call, rawArgs, validated.error), hookCtx: hookContext(scope, call, rawArgs, messages) };

  const hookCtx = hookContext(scope, call, validated.args, messages);
  const hooked = await runPreHooks(scope, tool, hookCtx, undefined);
  if (hooked) return hooked;
  const args = hookCtx.args;

  const rule = matchPermission(scope, call.name, args);
  if (rule?.decision === 'deny') {
    deps.onPermissionDecision?.({ toolName: call.name, toolCallId: call.id, decision: 'deny', ...(rule.reason ? { reason: rule.reason } : {}), rule });
    const error = toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'denied', error: rule.reason ?? `A permission rule denied '${call.name}'.`, details: rule.reason ? { reason: rule.reason } : {} });
    return { kind: 'done', outcome: errorOutcome(call, args, error), hookCtx };
  }
  const guarded = await checkToolGuardrails(scope, call, args, hookCtx);
  if (guarded) return guarded;

  const ctx = executionContext(scope, call, messages);
  let needs = tool.approvalKind === 'question' || rule?.decision === 'ask';
  if (!needs && rule?.decision !== 'allow' && tool.needsApproval) {
    try {
      needs = typeof tool.needsApproval === 'function' ? Boolean(await tool.needsApproval(args as never, ctx)) : tool.needsApproval === true;
    } catch (err) {
      if (err instanceof PropagatingToolError) throw err;
      return { kind: 'done', outcome: errorOutcome(call, args, toolErrorResult({ toolName: call.name, toolCallId: call.id, error: err, kind: 'execution' })), hookCtx };
    }
  }
  if (rule) deps.onPermissionDecision?.({ toolName: call.name, toolCallId: call.id, decision: rule.decision, ...(rule.reason ? { reason: rule.reason } : {}), rule });

  if (needs) {
    const kind = tool.approvalKind === 'question' ? 'question' : 'tool';
    const approval: PendingApprovalInfo = {
      approvalId: newApprovalId(),
      toolCallId: call.id,
      toolName: call.name,
      displayName: tool.displayName ?? call.name,
      args,
      kind,
      ...(kind === 'question' ? { question: questionText(args) } : {}),
    };
    if (deps.approve && kind === 'tool') {
      const decision = await deps.approve({ ...approval, sessionId: scope.snapshot.sessionId, runId: scope.snapshot.runId });
      if (decision !== true) {
        const note = typeof decision === 'string' ? decision : undefined;
        return { kind: 'done', outcome: errorOutcome(call, args, rejectedError(call, note)), hookCtx };
      }
    } else {
      return { kind: 'pause', call, approval };
    }
  }
  return { kind: 'run', call, tool, args, ctx, hookCtx };
}

function questionText(args: unknown): string {
  const q = (args as { question?: unknown } | null)?.question;
  return typeof q === 'string' ? q : '';
}

export function rejectedError(call: ToolCall, note: string | undefined): ToolErrorResult {
  return toolErrorResult({
    toolName: call.name,
    toolCallId: call.id,
    kind: 'rejected',
    error: note ? `The user rejected this call: ${note}` : 'The user rejected this call.',
    details: note ? { note } : {},
  });
}

/**
 * Pre-tool hooks in registration order. The first `deny` or `result` ends the chain; `input`s chain
 * and are re-validated. With `approvedArgs`, an `input` that differs from what a person approved is refused.
 */
export async function runPreHooks(
  scope: CallScope,
  tool: ToolDescriptor,
  hookCtx: ToolCallHookContext,
  approvedArgs: { value: unknown } | undefined,
): Promise<PreparedCall | undefined> {
  const { deps } = scope;
  const call: ToolCall = { id: hookCtx.toolCallId, name: hookCtx.toolName, arguments: '' };
  let lastInputHook: string | undefined;
  for (const hook of deps.hooks) {
    if (!hook.preToolCall) continue;
    const outcome = await hook.preToolCall(hookCtx);
    if (!outcome) continue;
    if ('deny' in outcome) {
      const reason = String(outcome.deny);
      deps.onPermissionDecision?.({ toolName: call.name, toolCallId: call.id, decision: 'deny', reason, hook: hook.name });
      const error = toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'denied', error: reason, details: { reason } });
      return { kind: 'done', outcome: errorOutcome(call, hookCtx.args, error), hookCtx };
    }
    if ('result' in outcome) {
      return { kind: 'done', outcome: { call, args: hookCtx.args, result: outcome.result, isError: false, replacedByHook: hook.name }, hookCtx };
    }
    if ('input' in outcome) {
      lastInputHook = hook.name;
      const revalidated = tool.inputSchema ? await validateToolSchema(tool.inputSchema, outcome.input) : { ok: true as const, value: outcome.input };
      if (!revalidated.ok) {
        const error = toolErrorResult({
          toolName: call.name,
          toolCallId: call.id,
          kind: 'validation',
          error: `Hook '${hook.name}' produced invalid input for '${call.name}': ${revalidated.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
          details: { issues: revalidated.issues },
        });
        return { kind: 'done', outcome: errorOutcome(call, outcome.input, error), hookCtx };
      }
      hookCtx.args = revalidated.value;
    }
  }
  // A resumed, approved call may only run with exactly the input the person approved.
  if (approvedArgs && !sameJson(hookCtx.args, approvedArgs.value)) {
    const error = toolErrorResult({
      toolName: call.name,
      toolCallId: call.id,
      kind: 'validation',
      error: `Hook '${lastInputHook ?? 'unknown'}' changed the input of an approved call; only the approved input may run.`,
    });
    return { kind: 'done', outcome: errorOutcome(call, hookCtx.args, error), hookCtx };
  }
  return undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function matchPermission(scope: CallScope, toolName: string, args: unknown) {
  for (const rule of scope.deps.permissions) {
    const t = rule.tool;
    const matches =
      typeof t === 'string'
        ? matchesToolName(t, toolName)
        : t instanceof RegExp
          ? t.test(toolName)
          : typeof t === 'function'
            ? t(toolName, args)
            : t.some((name) => matchesToolName(name, toolName));
    if (matches) return rule;
  }
  return undefined;
}

/** Runs a prepared call: execution (or the sandbox path), result checks, post-tool hooks. */
export async function executeCall(scope: CallScope, prepared: Extract<PreparedCall, { kind: 'run' }>): Promise<ToolOutcome> {
  const { call, tool, args, ctx } = prepared;
  let outcome: ToolOutcome;
  try {
    let raw: unknown;
    if (tool.requiresSandbox) {
      const sandbox = scope.deps.sandbox;
      const refusal = !tool.sandboxExecute
        ? `'${call.name}' requires a sandbox but has no sandboxExecute; it was refused rather than run unsandboxed.`
        : !sandbox
          ? `'${call.name}' requires a sandbox, but the agent has no SandboxAdapter configured.`
          : typeof sandbox.run !== 'function' && typeof sandbox.exec !== 'function'
            ? `'${call.name}' requires a sandbox, but the configured one ('${sandbox.name ?? 'unnamed'}') can neither run commands (exec) nor functions (run).`
            : undefined;
      if (refusal) {
        const error = toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'sandbox', error: refusal });
        return finishOutcome(scope, prepared, errorOutcome(call, args, error));
      }
      // sandboxExecute does its work through sandbox.exec; an adapter that offers run() wraps it whole.
      const run = () => tool.sandboxExecute!(args as never, sandbox!, ctx);
      raw = typeof sandbox!.run === 'function' ? await sandbox!.run(run) : await run();
    } else if (tool.execute) {
      raw = await tool.execute(args as never, ctx);
    } else {
      const legacy = tool.tool?.execute;
      if (!legacy) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_TOOL_DEFINITION, `Tool '${call.name}' has no execute function.`, { hint: 'Give the tool an execute(args, ctx) function.' });
      raw = await legacy(args, { toolCallId: call.id, messages: ctx.messages, abortSignal: ctx.abortSignal });
    }
    // A sub-agent waits for a person: no result yet, no post-hooks; the batch pauses on it.
    if (raw instanceof ChildPaused) return { call, args, result: null, isError: false, paused: raw.approval };
    const { value, artifacts } = splitArtifacts(raw);
    outcome = { call, args, result: value, isError: false, ...(artifacts ? { artifacts } : {}) };
    if (tool.outputSchema) {
      const checked = await validateToolSchema(tool.outputSchema, value);
      if (!checked.ok) {
        const error = toolErrorResult({
          toolName: call.name,
          toolCallId: call.id,
          kind: 'output-validation',
          error: `'${call.name}' returned a result that does not match its outputSchema: ${checked.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
          details: { issues: checked.issues },
        });
        outcome = errorOutcome(call, args, error);
      } else {
        outcome.result = checked.value;
      }
    }
  } catch (err) {
    if (err instanceof PropagatingToolError) throw err;
    const cancelled = isAbortError(err) || (scope.deps.signal?.aborted ?? false);
    const error = cancelled
      ? cancelledError(call)
      : toolErrorResult({ toolName: call.name, toolCallId: call.id, error: err });
    outcome = errorOutcome(call, args, error);
  }
  return finishOutcome(scope, prepared, outcome);
}

export function cancelledError(call: ToolCall): ToolErrorResult {
  return toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'cancelled', error: 'The run was stopped before this call finished; it was cancelled.' });
}

/** Post-tool hooks see every outcome (errors included) and may replace the result the model sees. */
export async function finishOutcome(scope: CallScope, prepared: { hookCtx?: ToolCallHookContext }, outcome: ToolOutcome): Promise<ToolOutcome> {
  const hookCtx = prepared.hookCtx;
  if (!hookCtx) return outcome;
  for (const hook of scope.deps.hooks) {
    if (!hook.postToolCall) continue;
    const view: ToolCallHookResult = {
      result: outcome.result,
      isError: outcome.isError,
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(outcome.artifacts ? { artifacts: outcome.artifacts } : {}),
    };
    const replaced = await hook.postToolCall(hookCtx, view);
    if (replaced && 'result' in replaced) outcome = { ...outcome, result: replaced.result };
  }
  return outcome;
}

/** The transcript message for an outcome: the result as JSON text (artifacts never reach the model). */
export function toolMessage(outcome: ToolOutcome): Message {
  const { call } = outcome;
  const content = typeof outcome.result === 'string' ? outcome.result : safeStringify(outcome.result);
  const message: Message = { role: 'tool', toolCallId: call.id, toolName: call.name, content };
  if (outcome.isError) message.isError = true;
  if (outcome.replacedByHook) message.metadata = { replacedByHook: outcome.replacedByHook };
  return Object.freeze(message);
}

function safeStringify(value: unknown): string {
  if (value === undefined) return 'null';
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return JSON.stringify({ error: 'UnserializableResult', message: 'The tool returned a value that is not JSON-serializable.' });
  }
}

/** What `result.toolCalls` keeps of a finished call. */
export function toolCallRecord(outcome: SettledCall): ToolCallRecord {
  return {
    toolCallId: outcome.call.id,
    toolName: outcome.call.name,
    args: outcome.args,
    result: outcome.result,
    isError: outcome.isError,
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.artifacts ? { artifacts: outcome.artifacts } : {}),
    ...(outcome.replacedByHook ? { replacedByHook: outcome.replacedByHook } : {}),
  };
}

/**
 * Emits an outcome's events and callbacks (`tool.done` / `tool.error`, `tool-result`, `onToolResult`)
 * as the call finishes, and returns its record (kept in call order by the batch).
 */
export function announceOutcome(scope: CallScope, outcome: ToolOutcome): ToolCallRecord {
  const { deps } = scope;
  const { call } = outcome;
  if (outcome.isError && outcome.error) {
    deps.emit({ type: 'tool.error', toolCallId: call.id, toolName: call.name, error: outcome.error });
  } else {
    deps.emit({
      type: 'tool.done',
      toolCallId: call.id,
      toolName: call.name,
      result: jsonSafe(outcome.result),
      ...(outcome.artifacts ? { artifacts: outcome.artifacts } : {}),
      ...(outcome.replacedByHook ? { replacedByHook: outcome.replacedByHook } : {}),
    });
  }
  const record = toolCallRecord(outcome);
  emitListener(deps, {
    type: 'tool-result',
    runId: scope.snapshot.runId,
    toolCallId: call.id,
    toolName: call.name,
    result: outcome.result,
    isError: outcome.isError,
    ...(outcome.artifacts ? { artifacts: outcome.artifacts } : {}),
    ...(outcome.replacedByHook ? { replacedByHook: outcome.replacedByHook } : {}),
  });
  deps.onToolResult?.(record);
  return record;
}

/** Events must be JSON: a result that is not (a class instance with cycles, a bigint) is sent as its JSON text form. */
function jsonSafe(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value) ?? 'null');
  } catch {
    return { error: 'UnserializableResult', message: 'The tool returned a value that is not JSON-serializable.' };
  }
}

export { isAbortError };
