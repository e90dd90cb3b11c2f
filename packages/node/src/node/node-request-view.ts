import type { IncomingMessage } from 'node:http';
import { ERROR_CODES, SDKError } from '@lousho/core';
import { bodyIncomplete, readLimited, tooLarge, concatBytes, type RequestView } from '@lousho/core/adapter';

/**
 * A node request as `createAgentHandler()` reads it, without a Fetch `Request` unless one of its
 * hooks asks for it: the headers from `rawHeaders` (joined as `Headers.get` joins them), the
 * body straight from the node stream, up to the handler's limit.
 */
export class NodeRequestView implements RequestView {
  readonly method: string;
  readonly url: string;
  readonly signal: AbortSignal;
  /** `writeResponse` writes an event stream from its chunks. */
  readonly writesSseChunks = true;
  readonly #req: IncomingMessage;
  readonly #parsedUrl: URL;
  #headers: Map<string, string> | undefined;
  /** The body as read, or 'reading' while it is read. */
  #body: Uint8Array | 'reading' | undefined;
  #request: Request | undefined;

  constructor(req: IncomingMessage, url: URL, signal: AbortSignal) {
    this.#req = req;
    this.#parsedUrl = url;
    this.method = req.method ?? 'GET';
    this.url = url.href;
    this.signal = signal;
  }

  header(name: string): string | null {
    return (this.#headers ??= headerMap(this.#req.rawHeaders)).get(name.toLowerCase()) ?? null;
  }

  async readBody(maxBytes: number): Promise<Uint8Array> {
    // A hook made the `Request` before the body was read: its body is the stream now.
    if (this.#request) return readLimited(this.#request.body, maxBytes);
    const req = this.#req;
    let bytes: string | Uint8Array | undefined = alreadyParsedBody(req);
    if (typeof bytes === 'string') bytes = new TextEncoder().encode(bytes);
    if (bytes === undefined && !req.readableEnded) {
      this.#body = 'reading';
      bytes = await readNodeBody(req, maxBytes);
    }
    bytes ??= new Uint8Array(0);
    if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
    return (this.#body = bytes);
  }

  async discardBody(): Promise<void> {
    if (this.#request) await this.#request.body?.cancel().catch(() => {});
    // Drained and dropped: the connection is free for the answer.
    else this.#req.resume();
  }

  request(): Request {
    return (this.#request ??= toRequest(this.#req, this.#parsedUrl, this.signal, this.#body));
  }
}

/**
 * Header names (lower case) and values, repeated ones joined as `Headers` joins them (with ", ",
 * and `cookie` with "; " as node's `Headers` does); HTTP/2 pseudo-headers left out.
 */
function headerMap(raw: readonly string[]): Map<string, string> {
  const headers = new Map<string, string>();
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name.startsWith(':')) continue;
    const value = raw[i + 1]!;
    const before = headers.get(name);
    headers.set(name, before === undefined ? value : `${before}${name === 'cookie' ? '; ' : ', '}${value}`);
  }
  return headers;
}

/**
 * A node request's body, at most `maxBytes`: past it, `LOUSHO_BODY_TOO_LARGE` and the rest is
 * drained and dropped (the answer still goes out); a connection that goes away before the end,
 * `LOUSHO_BODY_INCOMPLETE`.
 */
function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const settle = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onBroken);
      req.off('close', onBroken);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        settle();
        req.resume();
        reject(tooLarge(maxBytes));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => {
      settle();
      resolve(concatBytes(chunks, size));
    };
    // 'close' without 'end': the connection went away mid-body (not every Node emits 'error').
    const onBroken = (): void => {
      settle();
      reject(bodyIncomplete());
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onBroken);
    req.once('close', onBroken);
    req.resume();
  });
}

/**
 * The request as a Fetch `Request`: its body is `read` when the body was read already, else the
 * body a body parser left, else what is left of the node stream (none while it is being read).
 */
export function toRequest(req: IncomingMessage, url: URL, signal: AbortSignal, read?: Uint8Array | 'reading'): Request {
  // (Joined as `Headers.append` would join them; HTTP/2 pseudo-headers, not valid Fetch names, left out.)
  const headers = new Headers([...headerMap(req.rawHeaders)]);
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (method !== 'GET' && method !== 'HEAD') {
    const parsed = read === 'reading' ? undefined : (read ?? alreadyParsedBody(req));
    if (parsed !== undefined) {
      // (Bytes of node's own buffers, or copies: backed by an `ArrayBuffer`.)
      init.body = parsed as string | Uint8Array<ArrayBuffer>;
      headers.delete('content-length');
    } else if (req.readableEnded || read === 'reading') {
      // Someone read the body and kept nothing, or it is being read: there is no body left to give.
      headers.delete('content-length');
    } else {
      init.body = requestBody(req);
      init.duplex = 'half';
    }
  }
  return new Request(url, init);
}

/** A body Express' (or another) body parser consumed already, as bytes again. */
function alreadyParsedBody(req: IncomingMessage): string | Uint8Array | undefined {
  const body = (req as { body?: unknown }).body;
  const consumed = req.readableEnded || (req as { _body?: unknown })._body === true;
  if (!consumed || body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new Uint8Array(body);
  return JSON.stringify(body);
}

/**
 * The request body as a web stream that reads only as fast as the handler does. Cancelling it
 * (e.g. a 413) discards the rest instead of destroying the socket, so the response still goes out.
 * A client that goes away before the end of its body errors the stream (the handler answers 400
 * `LOUSHO_BODY_INCOMPLETE`, to nobody, and reports nothing).
 */
function requestBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const cut = (error?: unknown): void => {
          if (done) return;
          done = true;
          // Node's own error ('aborted', ECONNRESET) stays as the cause; the handler sees one code either way.
          controller.error(
            new SDKError(ERROR_CODES.LOUSHO_BODY_INCOMPLETE, 'The client closed the connection before the end of the body.', {
              hint: 'Nothing to fix on the server: the client went away while sending. Answer nothing, or a 400.',
              ...(error !== undefined ? { cause: error } : {}),
            }),
          );
        };
        req.on('data', (chunk: Buffer) => {
          if (done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => {
          if (done) return;
          done = true;
          controller.close();
        });
        req.once('error', cut);
        // 'close' without 'end': the connection went away mid-body (not every Node emits 'error').
        req.once('close', () => cut());
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        done = true;
        req.resume(); // drain and drop what is left
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

