import type { Message } from '../messages.js';
import { listOf, ListView, PersistentList } from './persistent-list.js';
import { CURSOR_OPEN, CURSOR_STEP_SHIFT } from './cursor.js';
import type { UIFlowNodePart, UIMessage, UIPart, UISubagentStatus, UITextPart, UIToolPart } from './types.js';

/** What an event changes on a tool part or a flow node part. */
export type PartFields = Partial<UIToolPart> | Partial<UIFlowNodePart>;

/**
 * Immutable edits of the message list. Each returns a new list in which only the touched
 * message, and in it only the touched part, are new objects. A message's parts are kept in a
 * `PersistentList` too, so changing one of its last parts (a text delta, a tool call's progress
 * or result) costs the same with 5 or 500 parts before it, and never depends on the messages
 * before it.
 *
 * The list's `shared` slot holds the ids of every tool call the versions of one conversation
 * have seen (all branches): a new call, absent from it, is appended without a scan of the reply;
 * a known id is searched in the open reply only, from the end (see `updateToolPart`).
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
    const self = this as Pick<UIMessage, 'id' | 'role'>;
    self.id = id;
    self.role = role;
    if (parts.length > EAGER_PARTS_LIMIT) this.lazy('parts');
    else (self as UIMessage).parts = parts.toArray();
  }
}

/** A message's parts as a list (a plain message, e.g. one restored from JSON, is converted). */
const partsOf = (message: UIMessage): Parts => listOf<Parts>(message) ?? PersistentList.from(message.parts);

export const withParts = (list: MessageList, index: number, message: UIMessage, parts: Parts): MessageList => list.set(index, new ListMessage(message.id, message.role, parts));

export const pushMessage = (list: MessageList, role: UIMessage['role'], parts: UIPart[]): MessageList =>
  list.push(new ListMessage(`m${list.length}`, role, PersistentList.from(parts)));

/**
 * Appends a part to the current reply, starting a new assistant message when there is none. With
 * `join`, streamed text (or reasoning) goes into the reply's last part when that is the same kind.
 * String concatenation is O(1) in JS engines (ropes), so the text is never copied per delta. (A
 * tool part's id goes into the list's tool-call index: the caller's job.)
 */
export function appendReplyPart(list: MessageList, cursor: number, part: UIPart, join?: boolean): MessageList {
  // The reply is the last message when it is open (an assistant message of this run).
  const reply = list.at(list.length - 1);
  if (!(cursor & CURSOR_OPEN) || reply?.role !== 'assistant') return pushMessage(list, 'assistant', [part]);
  const parts = partsOf(reply);
  let index = parts.length;
  const tail = parts.at(index - 1);
  // `part` is the caller's new object: it takes the joined text and the tail's place.
  if (join && tail?.type === part.type) {
    (part as UITextPart).text = (tail as UITextPart).text + (part as UITextPart).text;
    index--;
  }
  return withParts(list, list.length - 1, reply, parts.set(index, part));
}

/** A tool call's identity: what a new part for it is made from. */
export interface ToolCallRef {
  toolCallId: string;
  /** Needed only to create a part. */
  toolName?: string;
  displayName?: string;
}

/**
 * Replaces the part of `call` with the part and what `change(arg, part)` returns over it; when
 * there is no such part, appends a new part for `call` with what `change(arg)` returns (its
 * display name defaults to its name). When `change` returns nothing (undefined or null), returns
 * that. (A function and its argument rather than a closure: no allocation per event.)
 *
 * A call id names a call only within one model response (providers may number calls per response,
 * `call_0`, and a transcript shortened by compaction lets a model's ids come again), so the part
 * of a call is looked for only in the open reply, the current run's, searched from the end (the
 * latest call with that id); and an event that starts a call (`tool.input.start`, `tool.call`)
 * looks only among the current step's parts, when the cursor knows where they begin: a part of an
 * earlier step with the same id is another call. Where it does not know (a state from JSON, a
 * sub-agent's transcript), a call-starting event whose id's part there has ended (done, failed,
 * rejected) starts a new part. After `run.interrupted` the whole reply counts as the step: the
 * resumed leg runs its cut calls again, which keep their parts. A call of one run never reaches a
 * part of another (docs/protocol.md, "Tool call ids").
 */
export function updateToolPart<A>(
  list: MessageList,
  cursor: number,
  call: ToolCallRef,
  change: (arg: A, part?: UIToolPart) => PartFields | undefined | null,
  arg: A,
): MessageList | undefined | null {
  const { toolCallId, toolName } = call;
  const ids = (list.shared ??= toolCallIds(list));
  const m = list.length - 1;
  const reply = list.at(m);
  // Only the open reply holds the current run's calls; a call no version of this conversation
  // ever had is not in it either: no need to look.
  const parts = cursor & CURSOR_OPEN && reply && ids.has(toolCallId) ? partsOf(reply) : undefined;
  // Where the current step's parts begin (0 when not known: see `CURSOR_STEP_SHIFT`).
  const stepStart = (cursor >> CURSOR_STEP_SHIFT) - 1;
  for (let p = parts ? parts.length : 0; p--; ) {
    const part = parts!.at(p) as UIToolPart;
    // A tool part, or a flow node part (approvals reach both by `toolCallId`).
    if (part.toolCallId === toolCallId) {
      if (STARTS.has((call as { type?: string }).type) && (stepStart < 0 ? ENDED.has(part.state) : p < stepStart)) break;
      const fields = change(arg, part);
      return fields && withParts(list, m, reply!, parts!.set(p, merge(part, fields)));
    }
  }
  const fields = change(arg);
  return fields && (ids.add(toolCallId), appendReplyPart(list, cursor, { type: 'tool', toolCallId, toolName, displayName: call.displayName ?? toolName, ...fields } as UIToolPart));
}

/** The states of a call that has ended: where the step's start is not known, a call-starting event with its id is a later call. */
const ENDED: ReadonlySet<string | undefined> = /* @__PURE__ */ new Set<UIToolPart['state']>(['done', 'error', 'rejected']);
/** The events that start a call. */
const STARTS: ReadonlySet<string | undefined> = /* @__PURE__ */ new Set(['tool.input.start', 'tool.call']);

/** The cursor of a step that begins now: its parts start after the open reply's (or a new reply's first). */
export function stepCursor(list: MessageList, cursor: number): number {
  const reply = list.at(list.length - 1);
  const start = cursor & CURSOR_OPEN && reply?.role === 'assistant' ? partsOf(reply).length : 0;
  return (cursor & ((1 << CURSOR_STEP_SHIFT) - 1)) | ((start + 1) << CURSOR_STEP_SHIFT);
}

/** The ids of the tool calls in `list`: one scan, when a conversation's first tool event arrives. */
function toolCallIds(list: MessageList): Set<string> {
  const ids = new Set<string>();
  for (const message of list.toArray()) for (const part of message.parts) ids.add((part as UIToolPart).toolCallId);
  return ids;
}

/**
 * `part` with `fields` over it. `Object.assign` into a new object rather than a spread: a spread
 * followed by fields the part lacks is many times slower in V8. A delegation that changes state
 * (it ended, or was stopped) gives its sub-agent that status.
 */
export const merge = (part: UIToolPart, fields: PartFields): UIToolPart =>
  Object.assign({}, part, fields, part.subagent && fields.state && { subagent: { ...part.subagent, status: fields.state as UISubagentStatus } }) as UIToolPart;

/**
 * Marks the unfinished tool calls of the last message as `cancelled` (the leg ended without them;
 * a user message has none). Once per leg, so its parts are rebuilt from the plain array.
 */
export function endLegParts(list: MessageList): MessageList {
  const last = list.at(list.length - 1);
  if (!last) return list;
  let changed = false;
  const parts = last.parts.map((part) => {
    // Tool parts and flow node parts alike (a text part has no `state`).
    const { state } = part as UIToolPart;
    if (state !== 'input-streaming' && state !== 'running') return part;
    changed = true;
    return merge(part as UIToolPart, { state: 'cancelled' });
  });
  return changed ? withParts(list, list.length - 1, last, PersistentList.from(parts)) : list;
}

/** The UI parts of a message's content: text, images and files, in order (copies: the message is not shared). */
export const contentParts = (content: Message['content']): UIPart[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content.map((part) => ({ ...part })));
