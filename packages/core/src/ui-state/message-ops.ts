import type { Message } from '../messages.js';
import type { ToolErrorKind } from '../tools/types.js';
import { PersistentList } from './persistent-list.js';
import { CURSOR_OPEN } from './snapshot.js';
import type { UIMessage, UIPart, UIToolPart, UIToolState } from './types.js';

/**
 * Immutable edits of the message list. Each returns a new list in which only the touched
 * message, and in it only the touched part, are new objects. A message's parts are kept in a
 * `PersistentList` too, so changing one of its last parts (a text delta, a tool call's progress
 * or result) costs the same with 5 or 500 parts before it, and never depends on the messages
 * before it.
 *
 * The list's `shared` slot holds which message each tool call is in (`toolCallId` → message
 * index), shared by the versions of one conversation: finding a call, or finding that there is
 * none yet, is one lookup instead of a scan of every part. Another branch of the same states
 * may have moved an entry, so a hit is checked, and a miss there falls back to the scan.
 */
export type MessageList = PersistentList<UIMessage, Map<string, number>>;
type Parts = PersistentList<UIPart>;

/**
 * Up to this many parts, `parts` is a plain data property, copied per change. Past it, `parts`
 * is an own enumerable accessor that builds the array on first read (then caches it), so a long
 * tool-heavy reply does not copy its parts on every event.
 */
export const EAGER_PARTS_LIMIT = 32;

let partsListOf: (message: UIMessage) => Parts | undefined;

const PARTS_PROPERTY: PropertyDescriptor = {
  enumerable: true,
  get(this: UIMessage) {
    return partsListOf(this)!.toArray();
  },
};

/** A message the reducer made: its parts live in a `PersistentList`, exposed as `parts`. */
class ListMessage implements UIMessage {
  declare readonly parts: readonly UIPart[];
  readonly #parts: Parts;

  static {
    partsListOf = (message) => (#parts in message ? message.#parts : undefined);
  }

  constructor(
    readonly id: string,
    readonly role: UIMessage['role'],
    parts: Parts,
  ) {
    this.#parts = parts;
    if (parts.length > EAGER_PARTS_LIMIT) Object.defineProperty(this, 'parts', PARTS_PROPERTY);
    else (this as { parts: readonly UIPart[] }).parts = parts.toArray();
  }
}

/** A message's parts as a list (a plain message, e.g. one restored from JSON, is converted). */
const partsOf = (message: UIMessage): Parts => partsListOf(message) ?? PersistentList.from(message.parts);

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
  if (part.type === 'tool') next.shared?.set(part.toolCallId, next.length - 1);
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

/** Where `toolCallId`'s part is among the parts of `message` (searched from the end, where the live calls are), or -1. */
function findToolPart(message: UIMessage | undefined, toolCallId: string): number {
  const parts = message?.role === 'assistant' ? partsOf(message) : undefined;
  for (let p = parts?.length ?? 0; p--; ) {
    const part = parts!.at(p)!;
    if (part.type === 'tool' && part.toolCallId === toolCallId) return p;
  }
  return -1;
}

/** A tool call's identity: what a new part for it is made from. */
export interface ToolCallRef {
  toolCallId: string;
  toolName: string;
  displayName?: string;
}

/**
 * Replaces the part of `call` with what `update(part, arg)` returns (the same list when that is
 * the same part). When there is no such part and `create` is given, appends a new part for
 * `call` with `create` to the reply (its display name defaults to its name). Undefined when
 * nothing was found or made. (A function and its argument rather than a closure: no allocation
 * per event.)
 */
export function updateToolPart<A>(
  list: MessageList,
  cursor: number,
  call: ToolCallRef,
  update: (part: UIToolPart, arg: A) => UIToolPart | undefined,
  arg: A,
  create?: Partial<UIToolPart>,
): MessageList | undefined {
  const { toolCallId, toolName } = call;
  let index = list.shared;
  if (!index) {
    // The first lookup of this conversation: index what is there (one scan).
    index = list.shared = new Map();
    for (let m = 0; m < list.length; m++) {
      const message = list.at(m)!;
      if (message.role === 'assistant') for (const part of message.parts) if (part.type === 'tool') index.set(part.toolCallId, m);
    }
  }
  let m = index.get(toolCallId);
  let p = m === undefined ? -1 : findToolPart(list.at(m), toolCallId);
  // Moved by another branch of the states: look everywhere.
  if (p < 0 && m !== undefined) for (m = list.length; p < 0 && m--; ) p = findToolPart(list.at(m), toolCallId);
  if (p < 0) {
    return create && appendReplyPart(list, cursor, Object.assign({ type: 'tool', toolCallId, toolName, displayName: call.displayName ?? toolName }, create) as UIToolPart);
  }
  const message = list.at(m!)!;
  const parts = partsOf(message);
  const part = parts.at(p) as UIToolPart;
  const next = update(part, arg);
  return next === part ? list : next && withParts(list, m!, message, parts.set(p, next));
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

/** The UI parts of a message's content: text, images and files, in order. */
export const contentParts = (content: Message['content']): UIPart[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : { ...part }));

/** A tool error's UI state: a stop or a call that never started is `cancelled`, a person's no is `rejected`. */
export const toolStateForError = (kind: ToolErrorKind): UIToolState =>
  kind === 'cancelled' || kind === 'not-run' ? 'cancelled' : kind === 'rejected' ? 'rejected' : 'error';
