import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import type { AgentStreamEvent } from '../events/types.js';
import { EventStreamError, type EventStreamErrorCode } from './errors.js';
import { PROTOCOL_EVENT_NAME, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './sse.js';

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

const DEFAULT_MAX_EVENT_SIZE = 32 * 1024 * 1024;
const CR = 13;
const BOM = 0xfeff;
const SNIPPET_LENGTH = 80;

export function createEventStreamDecoder(
  onEvent: (event: AgentStreamEvent) => void,
  options: EventStreamDecoderOptions = {},
): EventStreamDecoder {
  const textDecoder = new TextDecoder('utf-8');
  let version: string | undefined;
  let lastEventId = '';
  // Set once parsing failed (or `onEvent` threw): the parser is mid-line then, so it is not fed again.
  let failed = false;
  let failure: unknown;
  let endsWithCR = false;
  let sawText = false;
  const max = options.maxEventSize ?? DEFAULT_MAX_EVENT_SIZE;

  const onMessage = (message: EventSourceMessage): void => {
    const id = message.id;
    if (id !== undefined) lastEventId = id;
    const name = message.event;
    if (name === undefined || name === 'message') {
      if (version === undefined) fail('LOUSHO_STREAM_MISSING_VERSION', `Event${idText(id)} came before the protocol version frame.`, id, `Send encodeSseVersion() ("${PROTOCOL_VERSION}") first in every stream.`);
      let value: unknown;
      try {
        value = JSON.parse(message.data);
      } catch (cause) {
        fail('LOUSHO_STREAM_BAD_JSON', `Event${idText(id)} is not valid JSON: ${snippet(message.data)}`, id, 'Check what the server (or a proxy) writes to the stream.', cause);
      }
      if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string' || Array.isArray(value)) {
        fail('LOUSHO_STREAM_BAD_EVENT', `Event${idText(id)} is not an agent event (an object with a string "type"): ${snippet(message.data)}`, id);
      }
      onEvent(value as AgentStreamEvent);
    } else if (name === PROTOCOL_EVENT_NAME) {
      version = readVersion(message.data);
    }
    // Any other named frame is a control frame of a later version: ignored, as the spec allows.
  };

  const parser = createParser({
    onEvent: onMessage,
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    onError(error: ParseError) {
      if (error.type === 'max-buffer-size-exceeded') {
        throw new EventStreamError('LOUSHO_STREAM_EVENT_TOO_LARGE', `An event exceeded maxEventSize (${max} characters).`, {
          hint: 'Raise maxEventSize, or send smaller events.',
        });
      }
      // An invalid `retry` or an unknown field is ignored, as the SSE standard says.
    },
    ...(Number.isFinite(max) ? { maxBufferSize: max } : {}),
  });

  const feedText = (text: string): void => {
    if (text.length === 0) return;
    if (!sawText) {
      sawText = true;
      if (text.charCodeAt(0) === BOM) text = text.slice(1); // a BOM is allowed only at the very start
      if (text.length === 0) return;
    }
    endsWithCR = text.charCodeAt(text.length - 1) === CR;
    parser.feed(text);
  };

  const guard = (run: () => void): void => {
    if (failed) throw failure;
    try {
      run();
    } catch (error) {
      failed = true;
      failure = error;
      throw error;
    }
  };

  return {
    push(chunk) {
      guard(() => feedText(typeof chunk === 'string' ? chunk : textDecoder.decode(chunk, { stream: true })));
    },
    end() {
      guard(() => {
        feedText(textDecoder.decode());
        // A CR at the very end is a complete line ending; the parser waits for a possible LF, so
        // give it one (CR LF counts as one line ending).
        if (endsWithCR) feedText('\n');
        parser.reset();
      });
    },
    get lastEventId() {
      return lastEventId;
    },
    get version() {
      return version;
    },
  };
}

function readVersion(data: string): string {
  let announced: unknown;
  try {
    announced = (JSON.parse(data) as { version?: unknown } | null)?.version;
  } catch {
    // Reported below as an unreadable version.
  }
  if (typeof announced === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(announced)) return announced;
  return fail('LOUSHO_STREAM_UNSUPPORTED_VERSION', `Unsupported event protocol ${typeof announced === 'string' ? `"${announced}"` : snippet(data)}; this client reads ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`, undefined, 'Use the same @lousho/core version on the client and the server.');
}

function fail(code: EventStreamErrorCode, message: string, id: string | undefined, hint?: string, cause?: unknown): never {
  throw new EventStreamError(code, message, { ...(hint ? { hint } : {}), ...(cause ? { cause } : {}), ...(id !== undefined ? { eventId: id } : {}) });
}

function idText(id: string | undefined): string {
  return id ? ` ${id}` : ' (without id)';
}

function snippet(data: string): string {
  return JSON.stringify(data.length > SNIPPET_LENGTH ? `${data.slice(0, SNIPPET_LENGTH)}…` : data);
}
