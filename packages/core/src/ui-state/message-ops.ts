import type { Message } from '../messages.js';
import type { ToolErrorKind } from '../tools/types.js';
import { listOf, ListView, PersistentList } from './persistent-list.js';
import { CURSOR_OPEN } from './snapshot.js';
import type { UIMessage, UIPart, UIToolPart, UIToolState } from './types.js';

/**
 * Immutable edits of the message list. Each returns a new list in which only the touched
 * message, and in it only the touched part, are new objects. A message's parts are kept in a
 * `PersistentList` too, so changing one of its last parts (a text delta, a tool call's progress
 * or result) costs the same with 5 or 500 parts before it, and never depends on the messages
 * before it.
 *
 * The list's `shared` slot holds the ids of every tool call the versions of one conversation
 * have seen (all branches): a new call, absent from it, is appended without a scan of every part;
 * a known one is searched from the end, where the live calls are.
 */
export type MessageList = PersistentList<UIMessage, Set<string>>;
type Parts = PersistentList<UIPart>;

/** Up to this many parts, `parts` is a plain array copied per change; past it, built on first read (see `ListView`). */
export const EAGER_PARTS_LIMIT = 32;

/** A message the reducer made: its parts live in a `PersistentList`, shown as `parts`. */
class ListMessage extends ListView implements UIMessage {
  declare readonly id: string;
  declare readonly role: UIMessage['role'];
  declare readonly parts: readonly UIPart[];

  constructor(id: string, role: UIMessage['role'], parts: Parts) {
    super(parts);
    const self = this as { id: string; role: string; parts: readonly UIPart[] };
    self.id = id;
    self.role = role;
    if (parts.length > EAGER_PARTS_LIMIT) this.lazy('parts');
    else self.parts = parts.toArray();
  }
}

/** A message's parts as a list (a plain message, e.g. one restored from JSON, is converted). */
const partsOf = (message: UIMessage): Parts => listOf<Parts>(message) ?? PersistentList.from(message.parts);

const withParts = (list: MessageList, index: number, message: UIMessage, parts: Parts): MessageList =>
  list.set(index, new ListMessage(message.id, message.role, parts));

export const pushMessage = (list: MessageList, role: UIMessage['role'], parts: UIPart[]): MessageList =>
  list.push(new ListMessage(`m${list.length}`, role, PersistentList.from(parts)));

/** The last message when reply content goes into it (an assistant message of this run). */
function openReply(list: MessageList, cursor: number): UIMessage | undefined {
  const last = list.at(list.length - 1);
  return cursor & CURSOR_OPEN && last?.role === 'assistant' ? last : undefined;
}

/** Appends a part to the current reply, starting a new assistant message when there is none. */
export function appendReplyPart(list: MessageList, cursor: number, part: UIPart): MessageList {
  const reply = openReply(list, cursor);
  const next = reply ? withParts(list, list.length - 1, reply, partsOf(reply).push(part)) : pushMessage(list, 'assistant', [part]);
  if (part.type === 'tool') next.shared?.add(part.toolCallId);
  return next;
}

/**
 * Appends streamed text (or reasoning) to the reply: to its last part when that is the same kind
 * and no new step began, else as a new part. String concatenation is O(1) in JS engines (ropes),
 * so the text is never copied per delta.
 */
export function appendReplyText(list: MessageList, cursor: number, type: 'text' | 'reasoning', delta: string, continuePart: boolean): MessageList {
  const reply = continuePart && openReply(list, cursor);
  if (reply) {
    const parts = partsOf(reply);
    const index = parts.length - 1;
    const tail = parts.at(index);
    if (tail?.type === type) return withParts(list, list.length - 1, reply, parts.set(index, { type, text: tail.text + delta }));
  }
  return appendReplyPart(list, cursor, { type, text: delta });
}

/** A tool call's identity: what a new part for it is made from. */
export interface ToolCallRef {
  toolCallId: string;
  /** Needed only to create a part. */
  toolName?: string;
  displayName?: string;
}

/**
 * Replaces the part of `call` (searched from the end, where the live calls are) with the part
 * and what `change(arg, part)` returns over it; when there is no such part, appends a new part
 * for `call` with what `change(arg)` returns (its display name defaults to its name). Undefined
 * when `change` returns nothing. (A function and its argument rather than a closure: no
 * allocation per event.)
 */
export function updateToolPart<A>(
  list: MessageList,
  cursor: number,
  call: ToolCallRef,
  change: (arg: A, part?: UIToolPart) => Partial<UIToolPart> | undefined,
  arg: A,
): MessageList | undefined {
  const { toolCallId, toolName } = call;
  // A call no version of this conversation ever had is not here: no need to look.
  for (let m = (list.shared ??= toolCallIds(list)).has(toolCallId) ? list.length : 0; m--; ) {
    const message = list.at(m)!;
    const parts = message.role === 'assistant' ? partsOf(message) : undefined;
    for (let p = parts?.length ?? 0; p--; ) {
      const part = parts!.at(p)!;
      if (part.type === 'tool' && part.toolCallId === toolCallId) {
        const fields = change(arg, part);
        return fields && withParts(list, m, message, parts!.set(p, merge(part, fields)));
      }
    }
  }
  const fields = change(arg);
  return fields && appendReplyPart(list, cursor, Object.assign({ type: 'tool', toolCallId, toolName, displayName: call.displayName ?? toolName }, fields) as UIToolPart);
}

/** The ids of the tool calls in `list`: one scan, when a conversation's first tool event arrives. */
function toolCallIds(list: MessageList): Set<string> {
  const ids = new Set<string>();
  for (let m = list.length; m--; ) for (const part of list.at(m)!.parts) if (part.type === 'tool') ids.add(part.toolCallId);
  return ids;
}

/**
 * `part` with `fields` over it. `Object.assign` into a new object rather than a spread: a spread
 * followed by fields the part lacks is many times slower in V8.
 */
export const merge = (part: UIToolPart, fields: Partial<UIToolPart>): UIToolPart => Object.assign({}, part, fields);

/** Marks the unfinished tool calls of the last message as `cancelled` (the run ended without them). */
export function cancelUnfinishedTools(list: MessageList): MessageList {
  const last = list.at(list.length - 1);
  if (last?.role !== 'assistant') return list;
  const before = partsOf(last);
  let parts = before;
  for (let p = parts.length; p--; ) {
    const part = parts.at(p)!;
    if (part.type === 'tool' && (part.state === 'input-streaming' || part.state === 'running')) parts = parts.set(p, merge(part, { state: 'cancelled' }));
  }
  return parts === before ? list : withParts(list, list.length - 1, last, parts);
}

/** The UI parts of a message's content: text, images and files, in order (copies: the message is not shared). */
export const contentParts = (content: Message['content']): UIPart[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content.map((part) => ({ ...part })));

/** A tool error's UI state: a stop or a call that never started is `cancelled`, a person's no is `rejected`. */
export const toolStateForError = (kind: ToolErrorKind): UIToolState =>
  kind === 'cancelled' || kind === 'not-run' ? 'cancelled' : kind === 'rejected' ? 'rejected' : 'error';
