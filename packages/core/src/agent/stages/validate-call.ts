import type { ToolCallHookContext } from '@lousho/protocol';
import type { Message, ToolCall } from '@lousho/protocol';
import { toolErrorResult } from '../../tools/errors.js';
import type { ToolDescriptor } from '@lousho/protocol';
import { parseToolArguments, validateToolArguments } from '../../tools/validate-args.js';
import { announceCall, hookContext, lazyMessages } from '../call-context.js';
import type { CallScope, PreparedCall } from '../tool-call.js';
import { errorOutcome } from '../tool-outcome.js';

/** A call whose tool exists and whose arguments match its input schema. */
export interface ValidCall {
  kind: 'valid';
  tool: ToolDescriptor;
  /** The hooks' context; its `args` are the validated arguments. */
  hookCtx: ToolCallHookContext;
  messages: () => readonly Message[];
}

/**
 * The stage "validate", the first of a tool call: the call is announced (`tool.call`, with its
 * arguments as the model wrote them), then its tool is looked up and its arguments parsed and checked
 * against the input schema. Hooks, rules, `needsApproval` and `execute` only ever see parsed arguments:
 * an unknown tool or invalid arguments are the call's result (`not-found` / `validation`).
 */
export async function validateCall(scope: CallScope, call: ToolCall): Promise<ValidCall | Extract<PreparedCall, { kind: 'done' }>> {
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
  const validated = await validateToolArguments(tool, call.arguments, call.name);
  if (!validated.ok) return { kind: 'done', outcome: errorOutcome(call, rawArgs, validated.error), hookCtx: hookContext(scope, call, rawArgs, messages) };
  return { kind: 'valid', tool, hookCtx: hookContext(scope, call, validated.args, messages), messages };
}
