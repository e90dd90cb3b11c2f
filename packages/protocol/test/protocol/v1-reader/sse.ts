// The lousho.v1 reader as @lousho/core shipped it (protocol/ of main before lousho.v2), kept
// verbatim to test what an older client in a page that was not reloaded does with a v2 stream.
import type { AgentStreamEvent } from '../../../src/contracts/events.js';

/**
 * The version of the event wire format. A server announces it first in every stream; a client
 * refuses a stream whose version it does not know instead of misreading it.
 */
export const PROTOCOL_VERSION = 'lousho.v1';

/** The versions this build can read. */
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

/**
 * One agent event as an SSE frame: `id:` is the event's sequence number (what `Last-Event-ID`
 * carries on reconnect), `data:` the event as JSON. `JSON.stringify` escapes CR and LF inside
 * strings, so one `data:` line always suffices.
 */
export function encodeSseEvent(event: AgentStreamEvent): string {
  const json = JSON.stringify(event);
  return typeof event.seq === 'number' ? `id: ${event.seq}\ndata: ${json}\n\n` : `data: ${json}\n\n`;
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
