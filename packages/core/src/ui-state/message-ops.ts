import type { Message } from '../messages.js';
import type { ToolErrorKind } from '../tools/types.js';
import type { PersistentList } from './persistent-list.js';
import { CURSOR_OPEN } from './snapshot.js';
import type { UIMessage, UIPart, UIToolPart, UIToolState } from './types.js';

/**
 * Immutable edits of the message list. Each returns a new list in which only the touched
 * message, and in it only the touched part, are new objects. Their cost depends on the touched
 * message's part count, never on the number of messages before it.
 */
export type MessageList = PersistentList<UIMessage>;

export function pushMessage(list: MessageList, role: UIMessage['role'], parts: UIPart[]): MessageList {
  return list.push({ id: `m${list.length}`, role, parts });
}

/** True when reply content goes into the last message (an assistant message of this run). */
export function replyIsOpen(list: MessageList, cursor: number): boolean {
  return (cursor & CURSOR_OPEN) !== 0 && list.last?.role === 'assistant';
}

/** Appends a part to the current reply, starting a new assistant message when there is none. */
export function appendReplyPart(list: MessageList, cursor: number, part: UIPart): MessageList {
  const last = list.last;
  if (last === undefined || !replyIsOpen(list, cursor)) return pushMessage(list, 'assistant', [part]);
  const parts = last.parts.slice();
  parts.push(part);
  return list.replaceLast({ id: last.id, role: last.role, parts });
}

/**
 * Appends streamed text (or reasoning) to the reply: to its last part when that is the same kind
 * and no new step began, else as a new part. String concatenation is O(1) in JS engines (ropes),
 * so the text is never copied per delta.
 */
export function appendReplyText(list: MessageList, cursor: number, type: 'text' | 'reasoning', delta: string, continuePart: boolean): MessageList {
  const last = list.last;
  if (continuePart && last !== undefined && replyIsOpen(list, cursor)) {
    const parts = last.parts;
    const index = parts.length - 1;
    const tail = parts[index];
    if (tail !== undefined && tail.type === type) {
      const copy = parts.slice();
      copy[index] = { type, text: tail.text + delta };
      return list.replaceLast({ id: last.id, role: last.role, parts: copy });
    }
  }
  return appendReplyPart(list, cursor, { type, text: delta });
}

/** Where a tool call's part is: searched from the end, where the live calls are. */
export function locateToolPart(list: MessageList, toolCallId: string): { messageIndex: number; partIndex: number; part: UIToolPart } | undefined {
  for (let m = list.length - 1; m >= 0; m--) {
    const message = list.at(m)!;
    if (message.role !== 'assistant') continue;
    const parts = message.parts;
    for (let p = parts.length - 1; p >= 0; p--) {
      const part = parts[p]!;
      if (part.type === 'tool' && part.toolCallId === toolCallId) return { messageIndex: m, partIndex: p, part };
    }
  }
  return undefined;
}

export function replacePart(list: MessageList, messageIndex: number, partIndex: number, part: UIPart): MessageList {
  const message = list.at(messageIndex)!;
  const parts = message.parts.slice();
  parts[partIndex] = part;
  return list.set(messageIndex, { id: message.id, role: message.role, parts });
}

/**
 * Updates the part of `toolCallId` with `update`, or, when no such part exists yet, appends the
 * part `create` returns to the reply (when it returns one).
 */
export function upsertToolPart(
  list: MessageList,
  cursor: number,
  toolCallId: string,
  update: (part: UIToolPart) => UIToolPart,
  create: () => UIToolPart | undefined,
): MessageList {
  const found = locateToolPart(list, toolCallId);
  if (found) return replacePart(list, found.messageIndex, found.partIndex, update(found.part));
  const part = create();
  return part ? appendReplyPart(list, cursor, part) : list;
}

/** Marks the unfinished tool calls of the last message as `cancelled` (the run ended without them). */
export function cancelUnfinishedTools(list: MessageList): MessageList {
  const last = list.last;
  if (last === undefined || last.role !== 'assistant') return list;
  let parts: UIPart[] | undefined;
  for (let p = 0; p < last.parts.length; p++) {
    const part = last.parts[p]!;
    if (part.type === 'tool' && isUnfinished(part.state)) {
      parts ??= last.parts.slice();
      parts[p] = { ...part, state: 'cancelled' };
    }
  }
  return parts ? list.replaceLast({ id: last.id, role: last.role, parts }) : list;
}

function isUnfinished(state: UIToolState): boolean {
  return state === 'input-streaming' || state === 'running';
}

/** The UI parts of a message's content: text, images and files, in order. */
export function contentParts(content: Message['content']): UIPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: UIPart[] = [];
  for (const part of content) parts.push(part.type === 'text' ? { type: 'text', text: part.text } : { ...part });
  return parts;
}

/** A tool error's UI state: a stop or a call that never started is `cancelled`, a person's no is `rejected`. */
export function toolStateForError(kind: ToolErrorKind): UIToolState {
  if (kind === 'cancelled' || kind === 'not-run') return 'cancelled';
  if (kind === 'rejected') return 'rejected';
  return 'error';
}

