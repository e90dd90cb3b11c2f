import type { AgentStreamEvent } from '../contracts/events.js';
import { EventStreamError, type EventStreamErrorCode } from './errors.js';
import { CALL_SCOPED, PROTOCOL_EVENT_NAME, PROTOCOL_VERSION, STEP_SCOPED } from './sse.js';

/** Options of `createEventStreamDecoder()` (and `parseEventStream()`, which passes them on). */
export interface EventStreamDecoderOptions {
  /** Called when the server sends a `retry:` field (reconnection delay in ms). */
  onRetry?: (milliseconds: number) => void;
  /**
   * Largest event (pending line plus buffered data, in characters) the decoder keeps in memory;
   * past it, it throws `LOUSHO_STREAM_EVENT_TOO_LARGE`. Default 32 Mi characters; `Infinity` turns
   * the limit off.
   */
  maxEventSize?: number;
}

/**
 * A synchronous, push-based decoder: bytes (or text) in, agent events out through `onEvent`.
 * `parseEventStream` is built on it; use it directly to process a chunk's events without an
 * `await` per event.
 */
export interface EventStreamDecoder {
  /**
   * Feeds one chunk. Calls `onEvent` for each complete event in it, in order. A malformed event
   * throws an `EventStreamError` after every good event before it was delivered; once that has
   * happened, every later call throws the same error.
   */
  push(chunk: Uint8Array | string): void;
  /** The stream ended: flushes what is buffered. An event without its closing blank line is dropped. */
  end(): void;
  /** The SSE `id` of the last event that had one (what a reconnect sends as `Last-Event-ID`). */
  readonly lastEventId: string;
  /** The protocol version the stream announced, once it has. */
  readonly version: string | undefined;
}

/**
 * One block of lines that a blank line ended: its `data` lines joined with LF (undefined when it
 * had none: not an event then), its `event:` name (undefined for the default) and its own `id:`.
 */
export type SseBlockHandler = (data: string | undefined, event: string | undefined, id: string | undefined) => void;

/** The SSE layer alone: text in, blocks out. */
export interface SseParser {
  /** Feeds text (already decoded); calls the handler for each block completed by it. */
  feed(text: string): void;
  /** The stream ended: what is not yet complete is dropped, as the standard says. */
  end(): void;
}

/** The default `maxEventSize`: 32 Mi characters. */
export const DEFAULT_MAX_EVENT_SIZE = 33_554_432;
/** `TextDecoder` options for an event stream: the SSE parser drops the byte-order mark itself. */
export const UTF8_OPTIONS: TextDecoderOptions = { ignoreBOM: true };
/** `TextDecoder.decode` options for a chunk of a stream. */
export const STREAM: TextDecodeOptions = { stream: true };

/**
 * A server-sent events parser as the WHATWG standard describes it: LF, CR and CRLF line ends
 * (also a CRLF split across two chunks), comments, multi-line `data`, `event`, `id` (one holding
 * NUL is ignored), `retry` (digits only), a field without a colon, a leading byte-order mark.
 * Text only: UTF-8 decoding is the caller's.
 *
 * A block's `id` is its own (as `eventsource-parser` reports it); the standard's last event ID is
 * the last `id` of any completed block, which the caller keeps. Past `maxEventSize` characters
 * (pending line plus buffered data), `feed` throws `LOUSHO_STREAM_EVENT_TOO_LARGE`.
 */
export function createSseParser(onBlock: SseBlockHandler, onRetry?: (milliseconds: number) => void, maxEventSize = Infinity): SseParser {
  const onField = (field: string, value: string): void => {
    if (field === 'retry' && /^\d+$/.test(value)) onRetry?.(+value);
  };
  const lines = () => createSseFeed(onBlock, maxEventSize, onField);
  let feed = lines();
  /** Nothing was read yet: a byte-order mark may come. */
  let first = true;
  return {
    feed(text) {
      if (first && text) {
        first = false;
        if (text[0] === '\uFEFF') text = text.slice(1);
      }
      feed(text);
    },
    // Fresh lines drop what is pending.
    end: () => void (feed = lines()),
  };
}

/**
 * The SSE lines under `createSseParser`, as one function that takes the next text: text whose
 * byte-order mark is gone (a `TextDecoder` that does not ignore it drops it, as the standard
 * says). Fields other than `data`, `event` and `id` go to `onField`, so the HTTP client (which
 * has no use for `retry`) carries no code for them. A chunk is scanned once for line ends (one
 * more pass first when it holds a CR) and a partial line is joined only when its end arrives, so
 * the cost stays linear however the stream is cut.
 */
export function createSseFeed(onBlock: SseBlockHandler, maxEventSize: number, onField?: (field: string, value: string) => void): (text: string) => void {
  /** The start of a line whose end has not arrived yet. */
  let pending = '';
  let data: string | undefined;
  let event: string | undefined;
  let id: string | undefined;
  /** The previous chunk ended with CR: an LF first in the next one belongs to it. */
  let afterCR = false;

  const line = (text: string): void => {
    if (!text) {
      // A blank line ends the block. (A handler that throws ends the parsing: nobody feeds this parser again.)
      onBlock(data, event, id);
      data = event = id = undefined;
      return;
    }
    let colon = text.indexOf(':');
    // A field without a colon has an empty value (its value is cut past the end). A comment, which
    // starts with a colon, is a field without a name: unknown, so ignored.
    if (colon < 0) colon = text.length;
    const field = text.slice(0, colon);
    const value = text.slice(colon + (text[colon + 1] === ' ' ? 2 : 1));
    if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
    else if (field === 'id') {
      if (!value.includes('\0')) id = value;
    } else if (field === 'event') event = value || undefined;
    else onField?.(field, value);
  };

  return (text) => {
    if (text) {
      // The LF of a CRLF cut after its CR.
      if (afterCR && text[0] === '\n') text = text.slice(1);
      afterCR = text.endsWith('\r');
    }
    // CR and CRLF end lines too: made LF first (rare; a CRLF cut between chunks is joined by
    // `afterCR`), so the loop below looks for one character only.
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    let pos = 0;
    for (let end; (end = text.indexOf('\n', pos)) >= 0; pos = end + 1) {
      line(pending + text.slice(pos, end));
      pending = '';
    }
    pending += text.slice(pos);
    if (pending.length + (data ?? '').length > maxEventSize) throw new EventStreamError('LOUSHO_STREAM_EVENT_TOO_LARGE', `An event is over ${maxEventSize} characters.`);
  };
}

/**
 * The Lousho protocol on top of SSE blocks: the version frame must come before any event and
 * name a version this build reads (kept in `state.version`); each event is one JSON object with
 * a string `type`, handed to `onEvent` whole again (see `createSseEventEncoder` for what the
 * stream says once): `seq` from the block's `id`, `runId` and `sessionId` from the last event
 * that said them, the `step` of a `STEP_SCOPED` type from the last event of such a type, and the
 * `toolCallId` of a `CALL_SCOPED` type from the last event of such a type.
 * Other named frames (control frames of later versions) are skipped. A violation throws an
 * `EventStreamError` naming the event.
 */
export function protocolBlockHandler(onEvent: (event: AgentStreamEvent) => void, state: { version?: string | undefined }): SseBlockHandler {
  /** What the stream said last. */
  let runId: unknown, sessionId: unknown, step: unknown, call: unknown;
  return (data, name, id) => {
    if (data === undefined) return;
    if (!name || name === 'message') {
      if (!state.version) throw eventError('LOUSHO_STREAM_MISSING_VERSION', id, 'came before the version frame.');
      let value: Record<string, unknown> | null;
      try {
        value = JSON.parse(data);
      } catch (cause) {
        throw eventError('LOUSHO_STREAM_BAD_JSON', id, 'is not JSON.', cause);
      }
      // Only an object can have a string `type` (JSON arrays, strings and numbers have none).
      if (typeof value?.type !== 'string') throw eventError('LOUSHO_STREAM_BAD_EVENT', id, 'is not an event.');
      // What the stream said once, restored.
      if (id) value.seq = +id;
      runId = value.runId ??= runId;
      sessionId = value.sessionId ??= sessionId;
      if (STEP_SCOPED.has(value.type)) step = value.step ??= step;
      else if (CALL_SCOPED.has(value.type)) call = value.toolCallId ??= call;
      onEvent(value as unknown as AgentStreamEvent);
    } else if (name === PROTOCOL_EVENT_NAME) {
      let version: unknown;
      try {
        version = JSON.parse(data).version;
      } catch {
        // Not JSON, or null: reported below as an unsupported version.
      }
      if (version !== PROTOCOL_VERSION) {
        throw new EventStreamError('LOUSHO_STREAM_UNSUPPORTED_VERSION', `Protocol ${JSON.stringify(version)} is not ${PROTOCOL_VERSION}.`);
      }
      state.version = version as string;
    }
  };
}

/**
 * Makes a decoder that turns the chunks of a Lousho SSE stream (bytes split anywhere, even inside a
 * UTF-8 character, or text) into agent events, calling `onEvent` synchronously for each. The first
 * event must announce the protocol version; a malformed or oversized event makes `push()` throw an
 * `EventStreamError`, and every call after that throws it again.
 */
export function createEventStreamDecoder(onEvent: (event: AgentStreamEvent) => void, options: EventStreamDecoderOptions = {}): EventStreamDecoder {
  // The SSE standard strips one byte-order mark; the parser does it, so the text decoder must not.
  const textDecoder = new TextDecoder('utf-8', UTF8_OPTIONS);
  // Set once parsing failed (or `onEvent` threw): the parser may be mid-line then, so it is not fed again.
  let failure: { error: unknown } | undefined;
  const feed = (text: () => string, last?: boolean): void => {
    if (failure) throw failure.error;
    try {
      parser.feed(text());
      if (last) parser.end();
    } catch (error) {
      failure = { error };
      throw error;
    }
  };
  // Plain fields rather than getters: the block handler keeps them current.
  const decoder = {
    lastEventId: '',
    version: undefined as string | undefined,
    push: (chunk: Uint8Array | string) => feed(() => (typeof chunk === 'string' ? chunk : textDecoder.decode(chunk, STREAM))),
    end: () => feed(() => textDecoder.decode(), true),
  };
  const handle = protocolBlockHandler(onEvent, decoder);
  // The last event ID is kept here, not in the protocol check: the HTTP client has no use for it.
  const onBlock: SseBlockHandler = (data, name, id) => {
    if (id !== undefined) decoder.lastEventId = id;
    handle(data, name, id);
  };
  const parser = createSseParser(onBlock, options.onRetry, options.maxEventSize ?? DEFAULT_MAX_EVENT_SIZE);
  return decoder;
}

function eventError(code: EventStreamErrorCode, id: string | undefined, what: string, cause?: unknown): EventStreamError {
  return new EventStreamError(code, `Event ${id || '(no id)'} ${what}`, { eventId: id, cause });
}
