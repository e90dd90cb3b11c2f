import type { ToolCall } from '@lousho/protocol';
import { executionContext } from './call-context.js';
import { executeStage } from './stages/execute-call.js';
import { checkToolGuardrails } from './stages/guardrails.js';
import { approvalStage } from './stages/needs-approval.js';
import { matchPermission, permissionDenied } from './stages/permissions.js';
import { runPostHooks } from './stages/post-hooks.js';
import { runPreHooks } from './stages/pre-hooks.js';
import { validateCall } from './stages/validate-call.js';
import type { CallScope, PreparedCall, ToolOutcome } from './tool-call.js';

/**
 * The stages of one tool call, in the documented order (docs/architecture.md, "The stages of a
 * run"). Before it runs, one call at a time in call order: validate → pre-hooks → permissions → tool
 * guardrails → `needsApproval` → pause. Each stage may decide the call (its outcome, `kind: 'done'`)
 * or pause it; only a call none decided runs. Throws only for propagating errors (a hook that throws,
 * a `PropagatingToolError`).
 */
export async function prepareCall(scope: CallScope, call: ToolCall): Promise<PreparedCall> {
  const valid = await validateCall(scope, call);
  if (valid.kind === 'done') return valid;
  const { tool, hookCtx, messages } = valid;
  const hooked = await runPreHooks(scope, tool, hookCtx, undefined);
  if (hooked) return hooked;
  const args = hookCtx.args;
  const rule = matchPermission(scope.deps.permissions, call.name, args);
  if (rule?.decision === 'deny') return permissionDenied(scope.deps, call, args, rule, hookCtx);
  const guarded = await checkToolGuardrails(scope, call, args, hookCtx);
  if (guarded) return guarded;
  const ctx = executionContext(scope, call, messages);
  return approvalStage(scope, { kind: 'run', call, tool, args, ctx, hookCtx }, rule);
}

/**
 * The stages of a call that runs: execute (a sub-agent is a tool whose execution is a nested run) →
 * post-hooks. A delegation paused inside its sub-agent has no result yet: its post-hooks run when it
 * finishes. (The budget is checked after the batch, in the loop.)
 */
export async function executeCall(scope: CallScope, prepared: Extract<PreparedCall, { kind: 'run' }>): Promise<ToolOutcome> {
  const outcome = await executeStage(scope, prepared);
  if (outcome.paused) return outcome;
  return runPostHooks(scope, prepared, outcome);
}
