import type { ToolCallHookContext, ToolCallHookResult } from '@lousho/protocol';
import type { CallScope, ToolOutcome } from '../tool-call.js';

/**
 * The stage "post-hooks": `postToolCall` hooks see every outcome (errors included) and may replace
 * the result the model sees. A call that never reached the hooks' stages (no `hookCtx`) skips them.
 */
export async function runPostHooks(scope: CallScope, prepared: { hookCtx?: ToolCallHookContext }, outcome: ToolOutcome): Promise<ToolOutcome> {
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
