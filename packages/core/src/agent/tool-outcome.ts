import type { Message, ToolCall } from '@lousho/protocol';
import { toolErrorResult } from '../tools/errors.js';
import type { ToolErrorResult } from '@lousho/protocol';
import { emitListener } from './loop-deps.js';
import type { SettledCall, ToolCallRecord } from '@lousho/protocol';
import type { CallScope, ToolOutcome } from './tool-call.js';

/** A call's outcome and what becomes of it: its error results, its transcript message, its record, its events. */

export function errorOutcome(call: ToolCall, args: unknown, error: ToolErrorResult): ToolOutcome {
  return { call, args, result: error, isError: true, error };
}

/** The result of a call that was never started (the run failed, a budget ran out, a guardrail ended the run). */
export function notRunOutcome(call: ToolCall, message: string): ToolOutcome {
  return errorOutcome(call, null, toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'not-run', error: message }));
}

export function cancelledError(call: ToolCall): ToolErrorResult {
  return toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'cancelled', error: 'The run was stopped before this call finished; it was cancelled.' });
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
export function jsonSafe(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value) ?? 'null');
  } catch {
    return { error: 'UnserializableResult', message: 'The tool returned a value that is not JSON-serializable.' };
  }
}
