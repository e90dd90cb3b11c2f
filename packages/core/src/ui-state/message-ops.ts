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

/** `message` with other parts (a new object; the message itself is never changed). */
function withParts(list: MessageList, index: number, message: UIMessage, parts: UIPart[]): MessageList {
  return list.set(index, { id: message.id, role: message.role, parts });
}

/** The last message when reply content goes into it (an assistant message of this run). */
function openReply(list: MessageList, cursor: number): UIMessage | undefined {
  const last = list.last;
  return cursor & CURSOR_OPEN && last?.role === 'assistant' ? last : undefined;
}

/** Appends a part to the current reply, starting a new assistant message when there is none. */
export function appendReplyPart(list: MessageList, cursor: number, part: UIPart): MessageList {
  const reply = openReply(list, cursor);
  return reply ? withParts(list, list.length - 1, reply, [...reply.parts, part]) : pushMessage(list, 'assistant', [part]);
}

/**
 * Appends streamed text (or reasoning) to the reply: to its last part when that is the same kind
 * and no new step began, else as a new part. String concatenation is O(1) in JS engines (ropes),
 * so the text is never copied per delta.
 */
export function appendReplyText(list: MessageList, cursor: number, type: 'text' | 'reasoning', delta: string, continuePart: boolean): MessageList {
  const reply = continuePart ? openReply(list, cursor) : undefined;
  if (reply) {
    const parts = reply.parts;
    const index = parts.length - 1;
    const tail = parts[index];
    if (tail?.type === type) {
      const copy = parts.slice();
      copy[index] = { type, text: tail.text + delta };
      return withParts(list, list.length - 1, reply, copy);
    }
  }
  return appendReplyPart(list, cursor, { type, text: delta });
}

/**
 * Replaces the part of `toolCallId` (searched from the end, where the live calls are) with what
 * `update(part, arg)` returns. Undefined when there is no such part, or when `update` returns
 * undefined. (A function and its argument rather than a closure: no allocation per event.)
 */
export function updateToolPart<A>(list: MessageList, toolCallId: string, update: (part: UIToolPart, arg: A) => UIToolPart | undefined, arg: A): MessageList | undefined {
  for (let m = list.length; m--; ) {
    const message = list.at(m)!;
    const parts = message.parts;
    if (message.role === 'assistant') {
      for (let p = parts.length; p--; ) {
        const part = parts[p]!;
        if (part.type === 'tool' && part.toolCallId === toolCallId) {
          const next = update(part, arg);
          if (!next) return undefined;
          const copy = parts.slice();
          copy[p] = next;
          return withParts(list, m, message, copy);
        }
      }
    }
  }
  return undefined;
}

/** `part` with `fields` over it (the same part without fields). */
const merge = (part: UIToolPart, fields: Partial<UIToolPart> | undefined): UIToolPart => (fields ? { ...part, ...fields } : part);

/** A tool call's identity: what a new part for it is made from. */
export interface ToolCallRef {
  toolCallId: string;
  toolName: string;
  displayName?: string;
}

/**
 * Puts `update` over the part of `call` or, when there is none yet and `create` is given, appends
 * a new part for `call` with `create` to the reply (its display name defaults to its name).
 */
export function upsertToolPart(
  list: MessageList,
  cursor: number,
  call: ToolCallRef,
  update: Partial<UIToolPart> | undefined,
  create?: Partial<UIToolPart>,
): MessageList {
  const updated = updateToolPart(list, call.toolCallId, merge, update);
  if (updated || !create) return updated ?? list;
  const { toolCallId, toolName } = call;
  return appendReplyPart(list, cursor, { type: 'tool', toolCallId, toolName, displayName: call.displayName ?? toolName, ...create } as UIToolPart);
}

/** Marks the unfinished tool calls of the last message as `cancelled` (the run ended without them). */
export function cancelUnfinishedTools(list: MessageList): MessageList {
  const last = list.last;
  if (last?.role !== 'assistant') return list;
  let changed = false;
  const parts = last.parts.map((part) => {
    if (part.type !== 'tool' || (part.state !== 'input-streaming' && part.state !== 'running')) return part;
    changed = true;
    return { ...part, state: 'cancelled' as const };
  });
  return changed ? withParts(list, list.length - 1, last, parts) : list;
}

/** The UI parts of a message's content: text, images and files, in order. */
export function contentParts(content: Message['content']): UIPart[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : { ...part }));
}

/** A tool error's UI state: a stop or a call that never started is `cancelled`, a person's no is `rejected`. */
export function toolStateForError(kind: ToolErrorKind): UIToolState {
  return kind === 'cancelled' || kind === 'not-run' ? 'cancelled' : kind === 'rejected' ? 'rejected' : 'error';
}
