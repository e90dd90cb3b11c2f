import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { EDGE_BYTES, PendingRequests, responsesForDropped, type RequestId } from './oversized.js';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * `fetch` for the HTTP transports, with a size bound per message while reading: a JSON answer over
 * `limit` bytes, or one server-sent event over it, is dropped at the limit and replaced by an error
 * response for the call it answered (see oversized.ts). Nothing over the limit is ever kept.
 */
export function boundedFetch(limit: number, base: Fetch = (url, init) => fetch(url, init)): Fetch {
  const pending = new PendingRequests();
  return async (url, init) => {
    const sent = requestIds(init?.body, pending);
    const response = await base(url, init);
    if (!response.body) return response;
    const type = response.headers.get('content-type') ?? '';
    const body = type.includes('text/event-stream') ? response.body.pipeThrough(boundedEvents(limit, sent, pending)) : boundedJson(response.body, limit, sent, pending);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

/** The ids of the requests in a POST body (JSON-RPC, one message or a batch). */
function requestIds(body: unknown, pending: PendingRequests): RequestId[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(body);
    pending.sent(parsed);
    const scratch = new PendingRequests();
    scratch.sent(parsed);
    return scratch.all();
  } catch {
    return [];
  }
}

/** A JSON body, kept whole up to `limit` bytes; past it, the error responses instead. */
function boundedJson(source: ReadableStream<Uint8Array>, limit: number, sent: RequestId[], pending: PendingRequests): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.length;
          if (size > limit) {
            const head = new TextDecoder().decode(concat(chunks).subarray(0, EDGE_BYTES));
            await reader.cancel().catch(() => {});
            const answers = responsesForDropped(head, '', size, limit, sent.length > 0 ? sent : pending.all());
            controller.enqueue(encode(answers.length === 1 ? answers[0] : answers));
            controller.close();
            return;
          }
          chunks.push(value);
        }
        const whole = concat(chunks);
        noteResponses(whole, pending);
        controller.enqueue(whole);
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * Server-sent events, each kept whole up to `limit` bytes before it is passed on; an event over it
 * is read on without being kept and replaced by a `message` event with the error responses.
 */
function boundedEvents(limit: number, sent: RequestId[], pending: PendingRequests): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let event: Uint8Array[] = [];
  let size = 0;
  // The current line's length and last byte, kept or not (a blank line ends an event).
  let lineLength = 0;
  let lastByte = -1;
  let dropping: { head: string; tail: Uint8Array; bytes: number } | undefined;

  const endEvent = (controller: TransformStreamDefaultController<Uint8Array>) => {
    if (dropping) {
      const tail = decoder.decode(dropping.tail).replace(/\s+$/, '');
      const answers = responsesForDropped(dataOf(dropping.head), tail, dropping.bytes, limit, sent.length > 0 ? sent : pending.all());
      for (const answer of answers) controller.enqueue(new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(answer)}\n\n`));
    } else if (event.length > 0) {
      const whole = concat(event);
      noteResponses(new TextEncoder().encode(dataOf(decoder.decode(whole))), pending);
      controller.enqueue(whole);
    }
    dropping = undefined;
    event = [];
    size = 0;
  };

  const take = (part: Uint8Array) => {
    lineLength += part.length;
    if (part.length > 0) lastByte = part[part.length - 1]!;
    if (dropping) {
      dropping.bytes += part.length;
      dropping.tail = concat([dropping.tail, part]).slice(-EDGE_BYTES);
    } else if (size + part.length > limit) {
      const kept = concat([...event, part]);
      dropping = { head: decoder.decode(kept.subarray(0, EDGE_BYTES)), tail: kept.slice(-EDGE_BYTES), bytes: kept.length };
      event = [];
      size = 0;
    } else {
      event.push(part);
      size += part.length;
    }
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(10, start);
        take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
        if (newline === -1) return;
        const blank = lineLength === 0 || (lineLength === 1 && lastByte === 13);
        take(NEWLINE);
        lineLength = 0;
        lastByte = -1;
        if (blank) endEvent(controller);
        start = newline + 1;
      }
    },
    flush(controller) {
      endEvent(controller);
    },
  });
}

const NEWLINE = new Uint8Array([10]);

/** The JSON of an event's `data:` lines (what a response's id is read from). */
function dataOf(eventText: string): string {
  return eventText
    .split(/\r?\n/)
    .filter((row) => row.startsWith('data:'))
    .map((row) => row.slice(5).replace(/^ /, ''))
    .join('\n');
}

function noteResponses(bytes: Uint8Array, pending: PendingRequests): void {
  try {
    pending.received(JSON.parse(new TextDecoder().decode(bytes)) as unknown);
  } catch {
    // Not JSON (an empty body, a comment event): nothing answered.
  }
}

function encode(message: JSONRPCMessage | JSONRPCMessage[] | undefined): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(message ?? null));
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
