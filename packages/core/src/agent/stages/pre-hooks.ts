import type { ToolCallHookContext } from '@lousho/protocol';
import type { ToolCall } from '@lousho/protocol';
import { toolErrorResult } from '../../tools/errors.js';
import { validateToolSchema } from '../../tools/schema.js';
import type { ToolDescriptor } from '@lousho/protocol';
import type { CallScope, PreparedCall } from '../tool-call.js';
import { errorOutcome } from '../tool-outcome.js';

type Done = Extract<PreparedCall, { kind: 'done' }>;

/**
 * The stage "pre-hooks": `preToolCall` hooks in registration order. The first `deny` or `result` ends
 * the chain (and is the call's outcome); `input`s chain and are re-validated. With `approvedArgs`, an
 * `input` that differs from what a person approved is refused. Undefined: the call goes on, with
 * `hookCtx.args` as the hooks left them.
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
      const invalid = await applyInput(tool, call, hook.name, outcome.input, hookCtx);
      if (invalid) return invalid;
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

/** A hook's `input`, validated like the model's arguments: it becomes `hookCtx.args`, or the call's `validation` error. */
async function applyInput(tool: ToolDescriptor, call: ToolCall, hookName: string, input: unknown, hookCtx: ToolCallHookContext): Promise<Done | undefined> {
  const revalidated = tool.inputSchema ? await validateToolSchema(tool.inputSchema, input) : { ok: true as const, value: input };
  if (revalidated.ok) {
    hookCtx.args = revalidated.value;
    return undefined;
  }
  const error = toolErrorResult({
    toolName: call.name,
    toolCallId: call.id,
    kind: 'validation',
    error: `Hook '${hookName}' produced invalid input for '${call.name}': ${revalidated.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
    details: { issues: revalidated.issues },
  });
  return { kind: 'done', outcome: errorOutcome(call, input, error), hookCtx };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
