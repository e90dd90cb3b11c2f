import type { ToolCallHookContext } from '@lousho/protocol';
import type { Message, ToolCall } from '@lousho/protocol';
import type { ToolDescriptor } from '@lousho/protocol';
import type { ToolExecutionContext } from '@lousho/protocol';
import { emitListener } from './loop-deps.js';
import { attachScope } from './loop-scope.js';
import type { CallScope } from './tool-call.js';
import { jsonSafe } from './tool-outcome.js';

/** What the stages of one tool call share: the contexts a hook and the tool see. */

/** A read-only view of the transcript the model saw, copied only if a tool or hook reads it. */
export function lazyMessages(scope: CallScope): () => readonly Message[] {
  let copy: readonly Message[] | undefined;
  const { snapshot, visibleLength } = scope;
  return () => (copy ??= Object.freeze(snapshot.messages.slice(0, visibleLength)));
}

/** The `ctx` a tool's `execute` (and `needsApproval`) gets. */
export function executionContext(scope: CallScope, call: ToolCall, messages: () => readonly Message[]): ToolExecutionContext {
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

/** The context `preToolCall` / `postToolCall` hooks get (their `args` follow the `input` a hook gave). */
export function hookContext(scope: CallScope, call: ToolCall, args: unknown, messages: () => readonly Message[]): ToolCallHookContext {
  const ctx = { toolName: call.name, toolCallId: call.id, args, runId: scope.snapshot.runId, sessionId: scope.snapshot.sessionId } as ToolCallHookContext;
  if (scope.deps.subagent) ctx.subagent = scope.deps.subagent;
  Object.defineProperty(ctx, 'messages', { get: messages, enumerable: true });
  return ctx;
}

/** Announces a call that is about to be decided or run (stream `tool.call`, listener `tool-call`, `onToolCall`). */
export function announceCall(scope: CallScope, call: ToolCall, tool: ToolDescriptor | undefined, args: unknown): void {
  const { deps } = scope;
  const displayName = tool?.displayName ?? call.name;
  deps.emit({ type: 'tool.call', step: scope.step, toolCallId: call.id, toolName: call.name, displayName, args });
  emitListener(deps, { type: 'tool-call', runId: scope.snapshot.runId, toolCallId: call.id, toolName: call.name, args });
  deps.onToolCall?.({ toolCallId: call.id, toolName: call.name, args });
}
