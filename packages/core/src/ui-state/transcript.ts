import type { PendingApprovalInfo } from '../events/types.js';
import { textOf, type Message } from '../messages.js';
import type { ToolErrorResult } from '../tools/types.js';
import { appendReplyPart, contentParts, pushMessage, toolStateForError, updateToolPart, type MessageList } from './message-ops.js';
import { PersistentList } from './persistent-list.js';
import { CURSOR_OPEN, CURSOR_STEP_BOUNDARY, Snapshot } from './snapshot.js';
import type { AgentUIState, AgentUIStatus, AnyUIToolPart, UIToolPart } from './types.js';

/** Options of `stateFromTranscript()`: what a transcript does not hold about the session. */
export interface TranscriptStateOptions {
  /** The session's last sequence number, so events replayed after it are applied and earlier ones ignored. */
  lastSeq?: number;
  /** The session's latest run, so the state's `runId` is right before any event arrives. Default: none. */
  runId?: string;
  /** The status to restore when no approval is pending (default `idle`). */
  status?: AgentUIStatus;
  /** A tool's display name (the transcript keeps only its name); defaults to the name. */
  displayName?: (toolName: string) => string;
}

/**
 * Adds one transcript message to the UI messages: a user message starts a new message; an
 * assistant message adds its text and tool calls to the current reply (the steps of one turn
 * form one UI message); a tool message completes its call's part. System messages are not shown.
 */
export function appendTranscriptMessage(
  list: MessageList,
  cursor: number,
  message: Message,
  displayName: (toolName: string) => string,
): { list: MessageList; cursor: number } {
  switch (message.role) {
    case 'user':
      return { list: pushMessage(list, 'user', contentParts(message.content)), cursor: 0 };
    case 'assistant': {
      const open = cursor | CURSOR_OPEN;
      const text = textOf(message);
      if (text) list = appendReplyPart(list, open, { type: 'text', text });
      for (const call of message.toolCalls ?? []) {
        const part: UIToolPart = { type: 'tool', toolCallId: call.id, toolName: call.name, displayName: displayName(call.name), state: 'running', ...parseArgs(call.arguments) };
        list = appendReplyPart(list, open, part);
        list.shared?.add(call.id);
      }
      return { list, cursor: CURSOR_OPEN | CURSOR_STEP_BOUNDARY };
    }
    case 'tool': {
      const toolCallId = message.toolCallId;
      if (toolCallId === undefined) return { list, cursor };
      const outcome = toolOutcome(message);
      return { list: updateToolPart(list, cursor, { toolCallId }, (fields, part) => part && fields, outcome) ?? list, cursor };
    }
    default:
      return { list, cursor };
  }
}

/**
 * Rebuilds the UI state from a stored transcript (e.g. on the server, or after a page reload),
 * with the pending approval when the session is paused on one. Tool artifacts and approval
 * decisions are not part of a transcript, so they are not restored.
 */
export function stateFromTranscript<ToolPart extends AnyUIToolPart = UIToolPart>(
  messages: readonly Message[],
  pending?: PendingApprovalInfo | null,
  options: TranscriptStateOptions = {},
): AgentUIState<ToolPart> {
  const displayName = options.displayName ?? ((name: string) => name);
  let list: MessageList = PersistentList.from([]);
  let cursor = 0;
  for (const message of messages) ({ list, cursor } = appendTranscriptMessage(list, cursor, message, displayName));
  if (pending) {
    const approval = { approvalId: pending.approvalId, kind: pending.kind, ...(pending.question !== undefined ? { question: pending.question } : {}) };
    const fields: Partial<UIToolPart> = { state: 'awaiting-approval', args: pending.args, approval };
    list = updateToolPart(list, cursor | CURSOR_OPEN, pending, (same) => same, fields)!;
    cursor = CURSOR_OPEN | CURSOR_STEP_BOUNDARY;
  }
  const status: AgentUIStatus = pending ? 'awaiting-approval' : (options.status ?? 'idle');
  return new Snapshot(list, cursor | CURSOR_STEP_BOUNDARY, {
    status,
    pendingApproval: pending ?? null,
    error: null,
    usage: null,
    finishReason: null,
    runId: options.runId,
    guardrail: null,
    lastSeq: options.lastSeq ?? 0,
  }) as unknown as AgentUIState<ToolPart>;
}

function parseArgs(text: string): { args?: unknown; argsText?: string } {
  try {
    return { args: JSON.parse(text) as unknown };
  } catch {
    return { argsText: text };
  }
}

/** A tool message as a part update: its result (JSON when it parses), or its error. */
function toolOutcome(message: Message): Partial<UIToolPart> {
  const text = textOf(message);
  if (message.isError) {
    const parsed = parseJson(text);
    const error: ToolErrorResult = isToolErrorResult(parsed)
      ? parsed
      : { error: 'ToolError', toolName: message.toolName ?? '', message: text, kind: 'execution' };
    return { state: toolStateForError(error.kind), error };
  }
  const parsed = parseJson(text);
  return { state: 'done', result: parsed === undefined ? text : parsed };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isToolErrorResult(value: unknown): value is ToolErrorResult {
  const v = value as Partial<ToolErrorResult> | null;
  return typeof v === 'object' && v !== null && typeof v.kind === 'string' && typeof v.message === 'string' && typeof v.error === 'string';
}
