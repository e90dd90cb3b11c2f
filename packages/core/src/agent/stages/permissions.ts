import type { PermissionRule, ToolCallHookContext } from '@lousho/protocol';
import type { ToolCall } from '@lousho/protocol';
import { toolErrorResult } from '../../tools/errors.js';
import type { LoopDeps } from '../loop-deps.js';
import { matchesToolName } from '../tool-name-pattern.js';
import type { PreparedCall } from '../tool-call.js';
import { errorOutcome } from '../tool-outcome.js';

/**
 * The stage "permissions": the first `permissions` rule whose `tool` matches the call (a name or
 * glob, a list of them, a RegExp, or a function of the name and the arguments), or undefined.
 */
export function matchPermission(permissions: readonly PermissionRule[], toolName: string, args: unknown): PermissionRule | undefined {
  for (const rule of permissions) {
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

/** A `deny` rule decides the call: reported to `onPermissionDecision`, its result is `denied`. */
export function permissionDenied(deps: Pick<LoopDeps, 'onPermissionDecision'>, call: ToolCall, args: unknown, rule: PermissionRule, hookCtx: ToolCallHookContext): PreparedCall {
  deps.onPermissionDecision?.({ toolName: call.name, toolCallId: call.id, decision: 'deny', ...(rule.reason ? { reason: rule.reason } : {}), rule });
  const error = toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'denied', error: rule.reason ?? `A permission rule denied '${call.name}'.`, details: rule.reason ? { reason: rule.reason } : {} });
  return { kind: 'done', outcome: errorOutcome(call, args, error), hookCtx };
}

/** An `allow` or `ask` rule's decision, reported once the call's approval is known. */
export function reportPermission(deps: Pick<LoopDeps, 'onPermissionDecision'>, call: ToolCall, rule: PermissionRule | undefined): void {
  if (rule) deps.onPermissionDecision?.({ toolName: call.name, toolCallId: call.id, decision: rule.decision, ...(rule.reason ? { reason: rule.reason } : {}), rule });
}
