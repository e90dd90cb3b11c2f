import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import type { AgentStreamEvent } from '../events/types.js';
import { EventStreamError } from './errors.js';
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
      if (version === undefined) throw missingVersion(id);
      let value: unknown;
      try {
        value = JSON.parse(message.data);
      } catch (cause) {
        throw badJson(message.data, id, cause);
      }
      if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string' || Array.isArray(value)) {
        throw badEvent(message.data, id);
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
        throw new EventStreamError('LOUSHO_STREAM_EVENT_TOO_LARGE', `An event grew past ${max} characters without ending, so the stream was stopped.`, {
          hint: 'Raise `maxEventSize` if such large events are expected, or make the server send smaller results.',
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
    announced = undefined;
  }
  if (typeof announced === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(announced)) return announced;
  const what = typeof announced === 'string' ? `"${announced}"` : `an unreadable version frame (${snippet(data)})`;
  throw new EventStreamError(
    'LOUSHO_STREAM_UNSUPPORTED_VERSION',
    `The server speaks event protocol ${what}, but this client understands only ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
    { hint: 'Use the same version of @lousho/core on the client and on the server.' },
  );
}

function missingVersion(id: string | undefined): EventStreamError {
  return new EventStreamError(
    'LOUSHO_STREAM_MISSING_VERSION',
    `Event${idText(id)} arrived before the stream announced its protocol version, so it cannot be read safely.`,
    {
      hint: `Start every stream with the version frame (\`encodeSseVersion()\`, which sends "${PROTOCOL_VERSION}"), or check that the URL is the agent handler's.`,
      ...(id !== undefined ? { eventId: id } : {}),
    },
  );
}

function badJson(data: string, id: string | undefined, cause: unknown): EventStreamError {
  return new EventStreamError('LOUSHO_STREAM_BAD_JSON', `Event${idText(id)} is not valid JSON: ${snippet(data)}`, {
    hint: 'Each `data:` of the stream must be one JSON event; check what the server (or a proxy in between) writes.',
    cause,
    ...(id !== undefined ? { eventId: id } : {}),
  });
}

function badEvent(data: string, id: string | undefined): EventStreamError {
  return new EventStreamError('LOUSHO_STREAM_BAD_EVENT', `Event${idText(id)} is not an object with a string "type": ${snippet(data)}`, {
    hint: 'Each `data:` of the stream must be one JSON agent event such as {"type":"text.delta",...}.',
    ...(id !== undefined ? { eventId: id } : {}),
  });
}

function idText(id: string | undefined): string {
  return id === undefined || id === '' ? ' (without id)' : ` ${id}`;
}

function snippet(data: string): string {
  return JSON.stringify(data.length > SNIPPET_LENGTH ? `${data.slice(0, SNIPPET_LENGTH)}…` : data);
}
