import type { FinishReason, PendingApprovalInfo, SerializedError } from '../events/types.js';
import type { RunUsage } from '../usage/types.js';
import type { MessageList } from './message-ops.js';
import { PersistentList } from './persistent-list.js';
import type { AgentUIState, AgentUIStatus, AnyUIToolPart, UIMessage, UIToolPart } from './types.js';

// Reducer bookkeeping that is not part of the public state (bits of `cursor`).
/** Reply content goes into the last message (an assistant message of the current run). */
export const CURSOR_OPEN = 1;
/** A new step began: the next text or reasoning starts a new part. */
export const CURSOR_STEP_BOUNDARY = 2;

/** The message list of a state the reducer made. */
export let messageListOf: (state: Snapshot) => MessageList;
/** The cursor bits of a state the reducer made. */
export let cursorOfState: (state: Snapshot) => number;
let isSnapshot: (value: object) => value is Snapshot;

/**
 * Up to this many messages, `messages` is a plain data property, copied per event (a copy this
 * short costs less than defining an accessor). Past it, `messages` is an own enumerable accessor
 * that builds the array on first read: it still looks like a plain property to spread,
 * JSON.stringify, structuredClone and deep-equality checks, and the cost of an event no longer
 * depends on the number of messages.
 */
export const EAGER_MESSAGES_LIMIT = 64;

const MESSAGES_PROPERTY: PropertyDescriptor = {
  enumerable: true,
  get(this: Snapshot) {
    return messageListOf(this).toArray();
  },
};

/** The state's fields, writable: the reducer fills in a new snapshot before anyone sees it. */
export type Draft = { -readonly [K in keyof AgentUIState]: AgentUIState[K] };

/**
 * The reducer's state object. Messages are kept in a `PersistentList`, so an event that changes
 * the last message costs the same with 10 or 10,000 messages before it. States that share the
 * list share the `messages` array.
 */
export class Snapshot implements AgentUIState {
  declare readonly messages: readonly UIMessage[];
  declare readonly status: AgentUIStatus;
  declare readonly pendingApproval: PendingApprovalInfo | null;
  declare readonly error: SerializedError | null;
  declare readonly usage: RunUsage | null;
  declare readonly finishReason: FinishReason | null;
  declare readonly lastSeq: number;
  declare readonly runId: string | undefined;
  readonly #list: MessageList;
  readonly #cursor: number;

  static {
    messageListOf = (state) => state.#list;
    cursorOfState = (state) => state.#cursor;
    isSnapshot = (value): value is Snapshot => #list in value;
  }

  /** A state with `list` and `cursor`, its other fields taken from `from` (missing ones as in the initial state). */
  constructor(from: Partial<AgentUIState>, list: MessageList, cursor: number, lastSeq: number) {
    const self = this as Draft;
    this.#list = list;
    this.#cursor = cursor;
    if (list.length <= EAGER_MESSAGES_LIMIT) self.messages = list.toArray();
    else Object.defineProperty(this, 'messages', MESSAGES_PROPERTY);
    self.status = from.status ?? 'idle';
    self.pendingApproval = from.pendingApproval ?? null;
    self.error = from.error ?? null;
    self.usage = from.usage ?? null;
    self.finishReason = from.finishReason ?? null;
    self.lastSeq = lastSeq;
    self.runId = from.runId;
  }
}

/**
 * A state that did not come from the reducer (parsed from JSON, spread into a new object):
 * rebuilt once, so the reducer can go on from it.
 */
export function adoptState(state: AgentUIState): Snapshot {
  if (isSnapshot(state)) return state;
  const messages = Array.isArray(state.messages) ? (state.messages as readonly UIMessage[]) : [];
  const status = state.status;
  // A step boundary needs no guess: every new step starts with `step.start`, which sets it.
  const open = messages[messages.length - 1]?.role === 'assistant' && (status === 'submitted' || status === 'streaming' || status === 'awaiting-approval');
  return new Snapshot(state, PersistentList.from<UIMessage, Map<string, number>>(messages), open ? CURSOR_OPEN : 0, typeof state.lastSeq === 'number' ? state.lastSeq : 0);
}

const INITIAL = Object.freeze(new Snapshot({}, PersistentList.from<UIMessage, Map<string, number>>([]), 0, 0)) as Snapshot;

/** The state before any event: no messages, `idle`. Always the same object. */
export function initialAgentUIState<ToolPart extends AnyUIToolPart = UIToolPart>(): AgentUIState<ToolPart> {
  return INITIAL as unknown as AgentUIState<ToolPart>;
}

export function initialSnapshot(): Snapshot {
  return INITIAL;
}
