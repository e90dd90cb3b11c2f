import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_CODES, createAgentHandler, type AgentHandlerOptions, type HandlerAgent } from '@lousho/core';
import { checkOptionKeys, viewHandlerOf, isExpectedDisconnect, sseChunksOf, type OptionKeys, type RequestView } from '@lousho/core/adapter';
import { NodeRequestView, toRequest } from './node-request-view.js';
import { type BodyChunk, type BodySink, compressedSink, compressionOption, isCompressible, negotiateEncoding, socketSink, varyOnAcceptEncoding, type ResponseEncoding } from './compression.js';

/** A Fetch-API handler, as `createAgentHandler()` returns. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** A `node:http` request listener; also an Express / Connect middleware (`app.use('/api/agent', listener)`). */
export type NodeRequestListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** Options of `toNodeHandler()` and `createNodeListener()`. */
export interface NodeHandlerOptions {
  /** Unexpected failures of the adapter itself (the handler's own go to its `onError`). */
  onError?: (error: unknown) => void;
  /**
   * Compress event streams and JSON answers for clients that ask for it with `Accept-Encoding`
   * (`br` or `gzip`), flushed after every chunk so no event waits in the compressor. Default
   * false: it costs server CPU on every write (see docs/benchmarks.md, "Compression"); turn it on
   * when bandwidth costs more than CPU, and leave it off behind a proxy that compresses already.
   */
  compression?: boolean;
}

const NODE_HANDLER_OPTION_KEYS: OptionKeys<NodeHandlerOptions> = { onError: true, compression: true };

/**
 * Runs a Fetch-API handler in `node:http` (or Express): builds a `Request` from the Node request,
 * streams the `Response` body chunk by chunk (waiting for `drain` when the socket is full), and
 * aborts `request.signal` when the client goes away before the response ended. The handler of
 * `createAgentHandler()` gets a lighter view of the Node request instead (`NodeRequestView`; its
 * hooks still get a `Request`).
 *
 * Under Express, `req.url` is relative to the mount point, so mount the handler with the default
 * `basePath: ''` (`app.use('/api/agent', listener)`). A body that a body parser already read is
 * passed on as JSON.
 */
export function toNodeHandler(handler: FetchHandler, options: NodeHandlerOptions = {}): NodeRequestListener {
  checkOptionKeys('toNodeHandler()', options, NODE_HANDLER_OPTION_KEYS);
  const compression = compressionOption(options.compression);
  // `createAgentHandler()`'s handler reads a lighter view of the request (a `Request` only for its hooks).
  const viewHandler = viewHandlerOf(handler);
  return (req, res, next) => {
    void serve(handler, viewHandler, req, res, compression).catch((error: unknown) => {
      try {
        options.onError?.(error);
      } catch {
        // Nothing else to do with a failing logger.
      }
      if (next) {
        next(error);
        return;
      }
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: { code: 'LOUSHO_INTERNAL', message: 'The agent server failed to handle the request.' } }));
      } else {
        res.destroy();
      }
    });
  };
}

/** `toNodeHandler(createAgentHandler(agent, options))`: an agent served on `node:http` or Express in one call. */
export function createNodeListener(agent: HandlerAgent, options: AgentHandlerOptions & NodeHandlerOptions = {}): NodeRequestListener {
  const { compression, ...handlerOptions } = options;
  return toNodeHandler(createAgentHandler(agent, handlerOptions), {
    ...(options.onError ? { onError: options.onError } : {}),
    ...(compression !== undefined ? { compression } : {}),
  });
}

async function serve(
  handler: FetchHandler,
  viewHandler: ((request: RequestView) => Promise<Response>) | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  compression: boolean,
): Promise<void> {
  const controller = new AbortController();
  // The response closed before it finished: the client went away.
  const onClose = (): void => {
    if (!res.writableFinished) controller.abort(new DOMException('The client closed the connection.', 'AbortError'));
  };
  res.on('close', onClose);
  try {
    const url = requestUrl(req);
    if (typeof url === 'string') {
      // Refused before any handler sees it: there is no URL to give it.
      const body = JSON.stringify({ error: { code: ERROR_CODES.LOUSHO_INVALID_INPUT, message: url } });
      res.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
      res.end(body);
      return;
    }
    const response = await (viewHandler ? viewHandler(new NodeRequestView(req, url, controller.signal)) : handler(toRequest(req, url, controller.signal)));
    // The client went away meanwhile (e.g. while sending its body): nobody to answer.
    if (res.destroyed) {
      sseChunksOf(response)?.cancel();
      await response.body?.cancel().catch(() => {});
      return;
    }
    await writeResponse(response, res, controller.signal, compression ? negotiateEncoding(req.headers['accept-encoding']) : undefined, compression);
  } finally {
    res.off('close', onClose);
  }
}

/** A `Host` value: a name, an IPv4 address or a bracketed IPv6 one, and an optional port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=]+)(?::\d{0,5})?$/;

/**
 * The request's absolute URL, or why there is none. The host comes from the `Host` header (or
 * HTTP/2's `:authority`), checked so that it can only be a host: a value with a space, a `/`, an
 * `@` or a `%` is refused rather than parsed into something else. The path is the request target
 * as sent: `//x` stays a path, never a host (it is not resolved as a URL reference).
 */
function requestUrl(req: IncomingMessage): URL | string {
  const target = req.url ?? '/';
  const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
  if (/^https?:\/\//i.test(target)) {
    // The absolute form (sent to proxies, allowed to servers): it names its own host.
    try {
      return new URL(target);
    } catch {
      return 'The request target is not a valid URL.';
    }
  }
  if (!target.startsWith('/')) return 'The request target must be a path starting with "/".';
  const raw = req.headers.host ?? req.headers[':authority'];
  const host = raw === undefined ? 'localhost' : String(raw);
  if (!HOST.test(host)) return 'The Host header is not a valid host name.';
  try {
    return new URL(`${scheme}://${host}${target}`);
  } catch {
    return 'The Host header is not a valid host name.';
  }
}

async function writeResponse(
  response: Response,
  res: ServerResponse,
  signal: AbortSignal,
  encoding: ResponseEncoding | undefined,
  compression: boolean,
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  // An event stream of createAgentHandler's is read directly, without its web stream (it may have
  // none): a paced stream writes every event on its own, and the web stream's promises and queue
  // cost per write.
  const body = sseChunksOf(response) ?? response.body;
  // Only a body the handler did not encode itself, of a type worth it; `vary` whenever the
  // answer depends on Accept-Encoding, compressed or not, so a cache keeps the two apart.
  const compressible = compression && body !== null && !response.headers.has('content-encoding') && isCompressible(response.headers.get('content-type'));
  if (compressible) varyOnAcceptEncoding(headers);
  const compress = compressible && encoding !== undefined;
  if (compress) {
    headers['content-encoding'] = encoding;
    delete headers['content-length'];
  }
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (!body) {
    res.end();
    return;
  }
  // Headers out now: a client should see them before the first chunk. An event stream of
  // createAgentHandler's has its first chunk (the version frame) at once, and takes the headers
  // along in the same write (one syscall per stream less); a compressor would hold them back.
  if (compress || body instanceof ReadableStream) res.flushHeaders();
  const sink = compress ? compressedSink(res, encoding) : socketSink(res);
  const chunks: BodyChunks = body instanceof ReadableStream ? bodyChunks(body) : body;
  // Kept here rather than read from the signal per chunk (its getter checks its receiver each time).
  let aborted = signal.aborted;
  const cancel = (): void => {
    aborted = true;
    chunks.cancel(signal.reason);
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const ended = await writeChunks(chunks, sink, res, () => aborted);
    if (ended && !res.destroyed && !signal.aborted) sink.end();
  } finally {
    signal.removeEventListener('abort', cancel);
    if (signal.aborted || res.destroyed) {
      sink.destroy();
      chunks.cancel();
    } else chunks.release?.();
  }
}

/**
 * Writes `chunks` to `sink` as they come, from the body's callbacks: one promise per response, not
 * per write (a stream at a model's pace writes every event on its own). Resolves with true once the
 * body ended, false when the client went away first (`aborted`, or the response was destroyed) or
 * the body failed as a disconnect does; rejects with any other failure of the body or the sink.
 */
function writeChunks(chunks: BodyChunks, sink: BodySink, res: ServerResponse, aborted: () => boolean): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    let pulling = false;
    let again = false;
    const onChunk = (chunk: BodyChunk | undefined): void => {
      if (chunk === undefined) return resolve(true);
      if (aborted() || res.destroyed) return resolve(false);
      let ready: boolean;
      try {
        ready = sink.write(chunk);
      } catch (error) {
        reject(error);
        return;
      }
      if (ready) pull();
      // The body may fail while we wait for `drain` (an event stream whose reader fell too far
      // behind closes its connection that way): stop waiting then.
      else Promise.race([sink.drained(), chunks.failed]).then(pull, reject);
    };
    const onFailure = (error: unknown): void => {
      // Headers are out: the only way to tell the client is to cut the connection.
      sink.destroy();
      if (isExpectedDisconnect(error)) resolve(false);
      else reject(error);
    };
    // A chunk handed over at once (the version frame, events already waiting) is written in this
    // loop rather than in a deeper call each.
    const pull = (): void => {
      if (pulling) {
        again = true;
        return;
      }
      pulling = true;
      try {
        do {
          again = false;
          chunks.nextThen(onChunk, onFailure);
        } while (again);
      } catch (error) {
        reject(error);
      } finally {
        pulling = false;
      }
    };
    pull();
  });
}

/** A body to write chunk by chunk: `nextThen` gives undefined at its end, `failed` settles if it fails meanwhile. */
interface BodyChunks {
  /** The next chunk to `done` (undefined at the end), or the body's failure to `failed`: exactly once, possibly at once. */
  nextThen(done: (chunk: BodyChunk | undefined) => void, failed: (error: unknown) => void): void;
  readonly failed: Promise<unknown>;
  cancel(reason?: unknown): void;
  release?(): void;
}

/** Any other response body: its web stream, read chunk by chunk. */
function bodyChunks(body: ReadableStream<Uint8Array>): BodyChunks {
  const reader = body.getReader();
  return {
    nextThen: (done, failed) => void reader.read().then((result) => done(result.done ? undefined : result.value), failed),
    failed: reader.closed.then(
      () => false,
      () => true,
    ),
    cancel: (reason) => void reader.cancel(reason).catch(() => {}),
    release: () => reader.releaseLock(),
  };
}
