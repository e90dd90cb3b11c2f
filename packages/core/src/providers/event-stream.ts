/**
 * Reads a provider's Server-Sent Events response body with `eventsource-parser`, yielding one
 * event at a time. Stopping early (the consumer breaks, or the signal aborts) cancels the body,
 * so the connection is released at once instead of downloading the rest of the answer.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { abortError, isAbortError } from './abort.js';
import { ProviderResponseError } from './http-error.js';
import { abortable, type ProviderIdentity } from './transport.js';

export interface ServerSentEvent {
  /** The `event:` field, when the server sent one (Anthropic does; OpenAI does not). */
  event: string | undefined;
  data: string;
  /**
   * True for an event the body ended in the middle of (no blank line after it). Its data may be
   * cut short, so a decoder that cannot parse it should report a cut stream, not a bad chunk.
   */
  atEnd: boolean;
}

/** Refuses to buffer more than this many characters of one unfinished event (runaway streams). */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;

export async function* readEventStream(
  response: Response,
  who: ProviderIdentity,
  signal: AbortSignal | undefined,
): AsyncGenerator<ServerSentEvent> {
  const body = response.body;
  if (!body) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending: EventSourceMessage[] = [];
  let overflow = false;
  const parser = createParser({
    onEvent: (event) => pending.push(event),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  let completed = false;
  try {
    for (;;) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await abortable(reader.read(), signal);
      } catch (err) {
        if (signal?.aborted) throw abortError(signal.reason);
        if (isAbortError(err)) throw err;
        throw new ProviderResponseError({
          provider: who.provider,
          message: `The connection to ${who.label} was lost while it was streaming its answer.`,
          hint: 'This is usually a network problem or a proxy timeout: try again.',
          retryable: true,
        });
      }
      if (read.done) break;
      parser.feed(decoder.decode(read.value, { stream: true }));
      if (overflow) {
        throw new ProviderResponseError({
          provider: who.provider,
          message: `${who.label} sent a stream event larger than ${MAX_EVENT_CHARS} characters.`,
          hint: 'The endpoint is not a well-formed event stream: check the base URL.',
          retryable: false,
        });
      }
      if (pending.length > 0) {
        const events = pending;
        pending = [];
        for (const event of events) yield { event: event.event, data: event.data, atEnd: false };
      }
    }
    // A body that stops inside an event leaves it buffered: two newlines hand it over, marked.
    parser.feed(`${decoder.decode()}\n\n`);
    completed = true;
    for (const event of pending) yield { event: event.event, data: event.data, atEnd: true };
  } finally {
    if (!completed) reader.cancel().catch(() => {});
  }
}
