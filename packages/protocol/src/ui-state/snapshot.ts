import type { FinishReason, PendingApprovalInfo, SerializedError } from '../contracts/events.js';
import type { GuardrailInfo } from '../contracts/guardrails.js';
import type { RunUsage } from '../contracts/usage.js';
import type { MessageList } from './message-ops.js';
import { CURSOR_OPEN } from './cursor.js';
import { ListView, PersistentList } from './persistent-list.js';
import type { AgentUIState, AgentUIStatus, AnyUIToolPart, UIMessage, UIQueuedMessage, UIToolPart } from './types.js';

/** The cursor bits of a state the reducer made. */
export let cursorOfState: (state: Snapshot) => number;

/** Up to this many messages, `messages` is a plain array copied per event; past it, built on first read (see `ListView`). */
export const EAGER_MESSAGES_LIMIT = 64;

/** The fields of a state besides its messages. */
export type StateFields = Omit<AgentUIState, 'messages'>;

/**
 * The reducer's state object. Messages are kept in a `PersistentList`, so an event that changes
 * the last message costs the same with 10 or 10,000 messages before it. States that share the
 * list share the `messages` array.
 */
export class Snapshot extends ListView implements AgentUIState {
  declare readonly messages: readonly UIMessage[];
  declare readonly status: AgentUIStatus;
  declare readonly pendingApproval: PendingApprovalInfo | null;
  declare readonly error: SerializedError | null;
  declare readonly usage: RunUsage | null;
  declare readonly finishReason: FinishReason | null;
  declare readonly guardrail: GuardrailInfo | null;
  declare readonly lastSeq: number;
  declare readonly runId: string | undefined;
  declare readonly queued?: readonly UIQueuedMessage[];
  /** The reducer's bookkeeping, not part of the public state: the bits above. */
  readonly #cursor: number;

  static {
    cursorOfState = (state) => state.#cursor;
  }

  /**
   * A state showing `list`, with `cursor` and the given fields. (One object of fields, written in
   * the same key order everywhere: gzip shares the repeated keys, which positional arguments and a
   * line per field would not, and this file is in every browser bundle.)
   */
  constructor(list: MessageList, cursor: number, fields: StateFields) {
    super(list);
    this.#cursor = cursor;
    // The fields first: `messages`, set after, replaces any that came with them.
    Object.assign(this, fields);
    if (list.length > EAGER_MESSAGES_LIMIT) this.lazy('messages');
    else (this as { messages: readonly UIMessage[] }).messages = list.toArray();
  }
}

/** The fields of the initial state: a state from elsewhere takes these where it has none. */
const INITIAL_FIELDS: StateFields = { status: 'idle', pendingApproval: null, error: null, usage: null, finishReason: null, runId: undefined, guardrail: null, lastSeq: 0 };

/**
 * A state that did not come from the reducer (parsed from JSON, spread into a new object):
 * rebuilt once, so the reducer can go on from it. Missing fields are as in the initial state.
 */
export function adoptState(state: Partial<AgentUIState>): Snapshot {
  if (state instanceof Snapshot) return state;
  const messages = Array.isArray(state.messages) ? (state.messages as readonly UIMessage[]) : [];
  // (Whatever else the object has comes along, unseen: the reducer's next state takes only its own fields.)
  const fields = { ...INITIAL_FIELDS, ...state };
  const status = fields.status;
  // A step boundary needs no guess: every new step starts with `step.start`, which sets it.
  const open = messages[messages.length - 1]?.role === 'assistant' && (status === 'submitted' || status === 'streaming' || status === 'awaiting-approval');
  return new Snapshot(PersistentList.from(messages), open ? CURSOR_OPEN : 0, fields);
}

/** The state before any event (what `initialAgentUIState()` returns); the client and reducer use it directly, which is smaller than a call. */
export const INITIAL = Object.freeze(adoptState({})) as AgentUIState;

/** The state before any event: no messages, `idle`. Always the same object. */
export function initialAgentUIState<ToolPart extends AnyUIToolPart = UIToolPart>(): AgentUIState<ToolPart> {
  return INITIAL as AgentUIState as AgentUIState<ToolPart>;
}
