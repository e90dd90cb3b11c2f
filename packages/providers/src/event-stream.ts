/**
 * Reads a provider's Server-Sent Events response body with the SDK's own SSE parser
 * (`createSseParser`, the one the client uses), yielding one event at a time. Stopping early (the
 * consumer breaks, or the signal aborts) cancels the body, so the connection is released at once
 * instead of downloading the rest of the answer.
 */
import { createSseParser } from '@lousho/protocol';
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
  let pending: ServerSentEvent[] = [];
  let atEnd = false;
  // Blocks without a `data` line are not events (as in a browser's EventSource).
  const parser = createSseParser(
    (data, event) => {
      if (data !== undefined) pending.push({ event, data, atEnd });
    },
    undefined,
    MAX_EVENT_CHARS,
  );
  const feed = (text: string): void => {
    try {
      parser.feed(text);
    } catch {
      // The only error the parser throws: one event outgrew MAX_EVENT_CHARS.
      throw new ProviderResponseError({
        provider: who.provider,
        message: `${who.label} sent a stream event larger than ${MAX_EVENT_CHARS} characters.`,
        hint: 'The endpoint is not a well-formed event stream: check the base URL.',
        retryable: false,
      });
    }
  };
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
      feed(decoder.decode(read.value, { stream: true }));
      if (pending.length > 0) {
        const events = pending;
        pending = [];
        yield* events;
      }
    }
    // A body that stops inside an event leaves it buffered: two line ends hand it over, marked.
    atEnd = true;
    feed(`${decoder.decode()}\n\n`);
    completed = true;
    yield* pending;
  } finally {
    if (!completed) reader.cancel().catch(() => {});
  }
}
