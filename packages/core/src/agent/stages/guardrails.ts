import type { Message, ToolCall } from '@lousho/protocol';
import { runGuardrails } from '../../guardrails/run-guardrails.js';
import type { GuardrailInfo, GuardrailStage } from '@lousho/protocol';
import { toolErrorResult } from '../../tools/errors.js';
import { withheldReplyText } from '@lousho/protocol';
import type { LoopDeps } from '../loop-deps.js';
import type { RunSnapshot } from '@lousho/protocol';
import type { CallScope, PreparedCall } from '../tool-call.js';
import type { ToolCallHookContext } from '@lousho/protocol';

/**
 * The guardrail stages of the loop: input (before any model call), tool (after permission rules,
 * before `needsApproval`) and output (the final reply). A block that ends the run is kept on the
 * snapshot (`snapshot.guardrail`), which is how the loop and the tool batch see it.
 */

/** A message's text, its text parts one per line (so nothing joins across a part boundary). */
function messageText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function info(block: { name: string; stage: GuardrailStage; reason: string }): GuardrailInfo {
  return { name: block.name, stage: block.stage, reason: block.reason };
}

/** Input guardrails on the run's new messages. A block ends the run before the input joins the transcript. */
export async function checkInputGuardrails(deps: Pick<LoopDeps, 'guardrails'>, snapshot: RunSnapshot, input: readonly Message[]): Promise<GuardrailInfo | undefined> {
  const list = deps.guardrails?.input;
  if (!list?.length || input.length === 0) return undefined;
  const text = input.map(messageText).join('\n');
  const block = await runGuardrails(list, { stage: 'input', text, messages: input, runId: snapshot.runId, sessionId: snapshot.sessionId });
  return block && (snapshot.guardrail = info(block));
}

/**
 * Output guardrails on the final reply. On a block the reply (already streamed) is withheld from the
 * transcript, so later turns never send it back to the model: a placeholder stands in for it.
 */
export async function checkOutputGuardrails(deps: LoopDeps, snapshot: RunSnapshot, text: string): Promise<GuardrailInfo | undefined> {
  const list = deps.guardrails?.output;
  if (!list?.length) return undefined;
  const block = await runGuardrails(list, { stage: 'output', text, runId: snapshot.runId, sessionId: snapshot.sessionId });
  if (!block) return undefined;
  const index = snapshot.messages.length - 1;
  const last = snapshot.messages[index];
  if (last?.role === 'assistant') {
    snapshot.messages[index] = Object.freeze({
      role: 'assistant',
      content: withheldReplyText(block.name),
      metadata: { ...last.metadata, guardrail: block.name },
    }) as Message;
  }
  await deps.checkpoint?.(snapshot);
  return (snapshot.guardrail = info(block));
}

/**
 * Tool guardrails on one call. A block becomes the call's `denied` result; unless the guardrail asked
 * to deny only the call (`onBlock: 'deny-call'`), it also ends the run (`snapshot.guardrail`).
 */
export async function checkToolGuardrails(scope: CallScope, call: ToolCall, args: unknown, hookCtx: ToolCallHookContext): Promise<PreparedCall | undefined> {
  const { deps, snapshot } = scope;
  const list = deps.guardrails?.tool;
  if (!list?.length) return undefined;
  const previousCalls = snapshot.toolCalls.map((c) => ({ toolName: c.toolName, args: c.args, isError: c.isError }));
  const block = await runGuardrails(list, { stage: 'tool', toolName: call.name, toolCallId: call.id, args, previousCalls, runId: snapshot.runId, sessionId: snapshot.sessionId });
  if (!block) return undefined;
  const reason = block.reason;
  deps.onPermissionDecision?.({ toolName: call.name, toolCallId: call.id, decision: 'deny', reason, guardrail: block.name });
  const error = toolErrorResult({
    toolName: call.name,
    toolCallId: call.id,
    kind: 'denied',
    error: `The guardrail '${block.name}' blocked this call: ${reason}`,
    details: { reason },
  });
  if (block.onBlock === 'end-run') snapshot.guardrail ??= info(block);
  return { kind: 'done', outcome: { call, args, result: error, isError: true, error }, hookCtx };
}
