import type { AgentStreamEvent } from '../contracts/events.js';

type Fields = Record<string, unknown>;
/** An object literal for one shape of event: every field in the object itself, in the same order. */
type Literal = (event: Fields, seq: number, runId: string, sessionId: string) => AgentStreamEvent;

const delta: Literal = (e, seq, runId, sessionId) => ({ type: e.type, step: e.step, delta: e.delta, seq, runId, sessionId }) as AgentStreamEvent;

/**
 * The shapes a run emits most (every token's delta) or a session keeps for good (its runs' start
 * and the person's message), with the fields they must have, in order. Built as a literal, such an
 * event keeps all of its fields in the object: built key by key from `{}`, V8 keeps the fields past
 * the fourth in a property array of their own (an allocation more per event, about 40 B more per
 * stored event: docs/benchmarks.md).
 */
const LITERALS = new Map<unknown, { keys: readonly string[]; build: Literal }>([
  ['text.delta', { keys: ['type', 'step', 'delta'], build: delta }],
  ['reasoning.delta', { keys: ['type', 'step', 'delta'], build: delta }],
  ['tool.input.delta', { keys: ['type', 'toolCallId', 'delta'], build: (e, seq, runId, sessionId) => ({ type: e.type, toolCallId: e.toolCallId, delta: e.delta, seq, runId, sessionId }) as AgentStreamEvent }],
  ['run.start', { keys: ['type', 'model'], build: (e, seq, runId, sessionId) => ({ type: e.type, model: e.model, seq, runId, sessionId }) as AgentStreamEvent }],
  ['user.message', { keys: ['type', 'message'], build: (e, seq, runId, sessionId) => ({ type: e.type, message: e.message, seq, runId, sessionId }) as AgentStreamEvent }],
  ['step.start', { keys: ['type', 'step'], build: (e, seq, runId, sessionId) => ({ type: e.type, step: e.step, seq, runId, sessionId }) as AgentStreamEvent }],
]);

/** True when `event`'s own enumerable fields are exactly `keys`, in that order. */
function hasExactly(event: Fields, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in event) if (key !== keys[i++]) return false;
  return i === keys.length;
}

/**
 * `event` as a session numbers it: a copy with its `seq` (unless undefined: a store that numbers
 * later), `runId` and `sessionId`, with the fields of `event` first, in their order. A spread
 * followed by these fields (`{ ...event, seq, runId, sessionId }`) cost V8 about 3 µs per event and
 * a hidden class of its own per event (node 20: `for` over 2,000,000 events, 2.7–3.8 µs against
 * 0.09–0.13 µs); it was the largest single cost of a server streaming to 1,000 sessions
 * (docs/benchmarks.md). The most common shapes are built as literals (`LITERALS`), the rest key by key.
 */
export function stampEvent(event: object, seq: number | undefined, runId: string, sessionId: string): AgentStreamEvent {
  const fields = event as Fields;
  if (seq !== undefined) {
    const literal = LITERALS.get(fields.type);
    if (literal && hasExactly(fields, literal.keys)) return literal.build(fields, seq, runId, sessionId);
  }
  const out: Fields = {};
  for (const key in fields) out[key] = fields[key];
  if (seq !== undefined) out.seq = seq;
  out.runId = runId;
  out.sessionId = sessionId;
  return out as unknown as AgentStreamEvent;
}
