import type { AgentStreamEvent } from '@lousho/protocol';
/** How the SQL stores keep values: as JSON text. */

/** JSON text of a value; a value that is not JSON (a cycle, a bigint) is stored as an explanation. */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return JSON.stringify({ error: 'UnserializableResult', message: 'The value is not JSON-serializable and was not stored.' });
  }
}

/** The value of JSON text a store kept; null or undefined (an empty column) reads as undefined. */
export function fromJson<T>(text: string | null | undefined): T | undefined {
  return text == null ? undefined : (JSON.parse(text) as T);
}

/**
 * An event as a store's row keeps it, next to the row's session id and seq: JSON without those two
 * and without `run.done`'s `text` (the deltas before it hold the reply). The lean shape of the
 * wire, minus what only a stream can say once: each row stays readable on its own.
 */
export function storedEventBody(event: AgentStreamEvent): string {
  const { seq: _seq, sessionId: _sessionId, ...rest } = event as AgentStreamEvent & { text?: unknown };
  if (rest.type === 'run.done') delete rest.text;
  return toJson(rest);
}

/** The event a row holds (`storedEventBody`), whole again: its seq and session from the row's key. Rows of older versions, which held both, read the same. */
export function storedEvent(body: string, seq: number, sessionId: string): AgentStreamEvent {
  const event = JSON.parse(body) as AgentStreamEvent;
  event.seq = seq;
  event.sessionId = sessionId;
  return event;
}
