import type { PendingApprovalInfo } from '@lousho/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitResult, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** What a person decided through elicitation. */
export type PersonDecision = { kind: 'tool'; approved: boolean; note?: string } | { kind: 'question'; answer: string };

/** Longest note or answer taken from a client (characters); the schema says so, and it is checked again here. */
export const MAX_ANSWER_LENGTH = 10_000;
/** Longest rendering of a call's arguments shown in an approval message. */
const MAX_ARGS_SHOWN = 2_000;

/** True when the connected client declared form elicitation (the only mode asked here). */
export function canAskPerson(server: Server): boolean {
  return server.getClientCapabilities()?.elicitation?.form !== undefined;
}

/**
 * Asks the person behind the MCP client about a paused call: approve it (with an optional note) or
 * answer its question. Decline and cancel reject a tool call; for a question they are an answer
 * saying so (the run needs one to go on). The client's content is checked again (types, lengths).
 */
export async function askPerson(
  server: Server,
  approval: PendingApprovalInfo,
  options: { relatedRequestId: RequestId; signal: AbortSignal; timeoutMs: number },
): Promise<PersonDecision> {
  const requestOptions = { relatedRequestId: options.relatedRequestId, signal: options.signal, timeout: options.timeoutMs };
  if (approval.kind === 'question') {
    const result = await server.elicitInput(
      {
        mode: 'form',
        message: approval.question ?? `${approval.displayName} asks a question.`,
        requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: 'Answer', maxLength: MAX_ANSWER_LENGTH } }, required: ['answer'] },
      },
      requestOptions,
    );
    const answer = accepted(result)?.answer;
    if (typeof answer === 'string') return { kind: 'question', answer: answer.slice(0, MAX_ANSWER_LENGTH) };
    return { kind: 'question', answer: 'The person declined to answer.' };
  }
  const result = await server.elicitInput(
    {
      mode: 'form',
      message: `Allow ${approval.displayName} (${approval.toolName}) to run with ${argsShown(approval.args)}?`,
      requestedSchema: {
        type: 'object',
        properties: {
          approved: { type: 'boolean', title: 'Approve', description: `Run ${approval.displayName}` },
          note: { type: 'string', title: 'Note', description: 'Why (the agent reads it)', maxLength: MAX_ANSWER_LENGTH },
        },
        required: ['approved'],
      },
    },
    requestOptions,
  );
  const content = accepted(result);
  const note = typeof content?.note === 'string' && content.note !== '' ? { note: content.note.slice(0, MAX_ANSWER_LENGTH) } : {};
  if (content?.approved === true) return { kind: 'tool', approved: true, ...note };
  if (content) return { kind: 'tool', approved: false, ...note };
  return { kind: 'tool', approved: false, note: result.action === 'decline' ? 'Declined by the person.' : 'The person closed the request without deciding.' };
}

function accepted(result: ElicitResult): Record<string, unknown> | undefined {
  return result.action === 'accept' && typeof result.content === 'object' && result.content !== null ? result.content : undefined;
}

function argsShown(args: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(args) ?? 'no arguments';
  } catch {
    json = 'arguments that cannot be shown';
  }
  return json.length > MAX_ARGS_SHOWN ? `${json.slice(0, MAX_ARGS_SHOWN)}…` : json;
}
