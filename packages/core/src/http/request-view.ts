import { ERROR_CODES } from '@lousho/protocol';
import { concatBytes } from '@lousho/protocol';
import { HttpError } from './errors.js';

/**
 * What the agent handler reads of a request. A Fetch `Request` gives one (`viewOfRequest`); the
 * node adapter gives a lighter one, read straight from the `IncomingMessage`: a `Request` with a
 * signal and a streamed body cost about 50 to 100 µs to make and read (node 20), a few percent of
 * a whole streamed turn's server CPU, and most requests never need one (docs/benchmarks.md).
 */
export interface RequestView {
  readonly method: string;
  readonly url: string;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** A header's value, as `Headers.get` gives it (repeated headers joined as it joins them). */
  header(name: string): string | null;
  /** The body's bytes; `LOUSHO_BODY_TOO_LARGE` past `maxBytes` (the rest is dropped), `LOUSHO_BODY_INCOMPLETE` if it breaks off. */
  readBody(maxBytes: number): Promise<Uint8Array>;
  /** Drops the body unread (frees the connection sooner). */
  discardBody(): Promise<void>;
  /** The request as a Fetch `Request`, for the handler's hooks (`authorize`, `onError`); made once, on first use. */
  request(): Request;
  /** The server writes an event stream's chunks itself (`sseChunksOf`): its response needs no web stream. */
  readonly writesSseChunks?: boolean;
}

export function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, ERROR_CODES.LOUSHO_BODY_TOO_LARGE, `The body is larger than the limit of ${maxBytes} bytes.`);
}

export function bodyIncomplete(): HttpError {
  // The client went away (or the connection broke) while sending: nobody is wrong here, and
  // nobody may be left to answer. Not an unexpected failure of the server.
  return new HttpError(400, ERROR_CODES.LOUSHO_BODY_INCOMPLETE, 'The request body ended before it was complete.');
}

/** A Fetch `Request` as the handler reads it. */
export function viewOfRequest(request: Request): RequestView {
  return {
    method: request.method,
    url: request.url,
    signal: request.signal,
    header: (name) => request.headers.get(name),
    readBody: (maxBytes) => readLimited(request.body, maxBytes),
    discardBody: async () => {
      if (request.body && !request.bodyUsed) await request.body.cancel().catch(() => {});
    },
    request: () => request,
  };
}

/** A web stream's bytes, at most `maxBytes` (past it, the stream is cancelled). */
export async function readLimited(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      throw bodyIncomplete();
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return concatBytes(chunks, size);
}
