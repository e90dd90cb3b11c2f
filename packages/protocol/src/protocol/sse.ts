import type { AgentStreamEvent } from '../contracts/events.js';

/**
 * The version of the event wire format. A server announces it first in every stream; a client
 * refuses a stream whose version it does not know instead of misreading it. v2 says once what
 * does not change within a stream (see `createSseEventEncoder`); v1 repeated it in every event.
 */
export const PROTOCOL_VERSION = 'lousho.v2';

/** The versions this build can read (the decoder compares with `PROTOCOL_VERSION`: a build that reads more than one says so there too). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [PROTOCOL_VERSION];

/**
 * The SSE event name of the version frame. Agent events are sent without an `event:` name (so a
 * browser `EventSource` delivers them to `onmessage`); control frames like this one carry a name.
 */
export const PROTOCOL_EVENT_NAME = 'protocol';

/** Response headers of an event stream (no caching, no proxy buffering, no transformation). */
export const sseHeaders: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
});

/** The event types that carry the step in progress, and the ones that carry a tool call. */
type StepType = Extract<AgentStreamEvent, { step: number }>['type'];
type CallType = Extract<AgentStreamEvent, { toolCallId: string }>['type'];

/**
 * The event types whose `step` a stream says only when it changes (part of lousho.v2: a change
 * to this list is a change of protocol). An event of these types without `step` on the wire has
 * the step of the last one that said it. Other types that have a `step` always say it.
 */
export const STEP_SCOPED: ReadonlySet<string> = /* @__PURE__ */ new Set<StepType>(['step.start', 'step.done', 'text.delta', 'reasoning.delta']);

/**
 * The event types whose `toolCallId` a stream says only when it changes (part of lousho.v2, like
 * `STEP_SCOPED`): the tool events. A tool event without `toolCallId` on the wire belongs to the
 * call of the last tool event that said one: a call's streamed arguments say it once, on
 * `tool.input.start`. Other types that name a call (approvals, flow nodes) always say it.
 */
export const CALL_SCOPED: ReadonlySet<string> = /* @__PURE__ */ new Set<CallType>(['tool.input.start', 'tool.input.delta', 'tool.call', 'tool.progress', 'tool.done', 'tool.error']);

/**
 * The events of one stream as SSE frames, each saying only what the stream did not say yet:
 * `id:` is the event's `seq` (not repeated in the JSON); `data:` is the event as one line of
 * JSON without `runId` and `sessionId` when the last event that said them said the same values,
 * without the `step` of a `STEP_SCOPED` type when it is the step last said, without the
 * `toolCallId` of a `CALL_SCOPED` type when it is the call last said in the same run (a call id
 * is unique only within a model response, so a new run says it again), and without
 * `run.done`'s `text` (the deltas before it carried the reply). A text delta is `id: N` +
 * `data: {"type":"text.delta","delta":"…"}` (the spaces after the colons are optional in SSE;
 * they cost 2 bytes and keep hand-written `data: ` readers working). The reader
 * (`createEventStreamDecoder`, `parseEventStream`, the HTTP client) restores every field, so the
 * events read are the events written. One encoder per stream: it remembers what was said. All
 * events of a stream belong to one session (or all to none).
 */
export function createSseEventEncoder(): (event: AgentStreamEvent) => string {
  let runId: unknown, sessionId: unknown, step: unknown, call: unknown;
  return (event) => {
    const { type } = event;
    const scoped = STEP_SCOPED.has(type);
    // A new run says its calls' ids again: an id left out always names a call of the same run.
    if (event.runId !== runId) call = undefined;
    let json = '{';
    for (const key in event) {
      const value = (event as unknown as Record<string, unknown>)[key];
      if (value === undefined || key === 'seq' || (key === 'text' && type === 'run.done')) continue;
      if (key === 'runId') {
        if (runId === value) continue;
        runId = value;
      } else if (key === 'sessionId') {
        if (sessionId === value) continue;
        sessionId = value;
      } else if (key === 'step' && scoped) {
        if (step === value) continue;
        step = value;
      } else if (key === 'toolCallId' && CALL_SCOPED.has(type)) {
        if (call === value) continue;
        call = value;
      }
      // Top-level keys are the event types' own field names: plain identifiers, nothing to escape.
      json += `${json.length > 1 ? ',' : ''}"${key}":${JSON.stringify(value)}`;
    }
    json += '}';
    return typeof event.seq === 'number' ? `id: ${event.seq}\ndata: ${json}\n\n` : `data: ${json}\n\n`;
  };
}

/**
 * One agent event as an SSE frame of its own: `id:` is its `seq`, `data:` the event as JSON with
 * every context field (a stream of such frames is valid, only longer). `JSON.stringify` escapes
 * CR and LF inside strings, so one `data:` line always suffices. To write a stream, use
 * `createSseEventEncoder()`, which leaves out what the stream already said.
 */
export function encodeSseEvent(event: AgentStreamEvent): string {
  return createSseEventEncoder()(event);
}

/** The version frame every stream starts with. */
export function encodeSseVersion(version: string = PROTOCOL_VERSION): string {
  return `event: ${PROTOCOL_EVENT_NAME}\ndata: ${JSON.stringify({ version })}\n\n`;
}

/**
 * A comment frame (ignored by every SSE parser): used as a keep-alive while a run is quiet, so
 * proxies and load balancers do not close an idle connection.
 */
export function encodeSseComment(text = ''): string {
  let out = '';
  for (const line of text.split(/\r\n|\r|\n/)) out += line ? `: ${line}\n` : ':\n';
  return `${out}\n`;
}

/** A `retry:` frame: how long (ms) a reconnecting `EventSource` waits before trying again. */
export function encodeSseRetry(milliseconds: number): string {
  if (!Number.isInteger(milliseconds) || milliseconds < 0) {
    throw new RangeError(`encodeSseRetry: expected a non-negative integer number of milliseconds, got ${String(milliseconds)}.`);
  }
  return `retry: ${milliseconds}\n\n`;
}
