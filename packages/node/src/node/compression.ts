import type { ServerResponse } from 'node:http';
import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';
import { ERROR_CODES, SDKError } from '@lousho/core';

/** The encodings `toNodeHandler({ compression: true })` can write, in the order it prefers them. */
export const RESPONSE_ENCODINGS = ['br', 'gzip'] as const;
export type ResponseEncoding = (typeof RESPONSE_ENCODINGS)[number];

/**
 * Checks the `compression` option: a boolean, or left out (off). Anything else is a mistake worth
 * hearing about, not a setting to guess at.
 */
export function compressionOption(value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value === 'boolean') return value;
  throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `toNodeHandler: compression must be true or false, got ${typeof value === 'string' ? `'${value}'` : String(value)}.`, {
    hint: 'Pass compression: true to compress event streams and JSON for clients that send Accept-Encoding: br or gzip.',
  });
}

/**
 * The encoding to answer with for an `Accept-Encoding` header (RFC 9110, 12.5.3): the client's
 * highest q-value among `br` and `gzip` (`*` stands for any not named), the server's order on a
 * tie; undefined for none (no header, `identity` only, or `q=0` for both).
 */
export function negotiateEncoding(header: string | undefined): ResponseEncoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name = '', ...params] = item.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q') q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? Number(value) : 0;
    }
    weights.set(name.trim(), q);
  }
  let best: ResponseEncoding | undefined;
  let bestQ = 0;
  for (const encoding of RESPONSE_ENCODINGS) {
    const q = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (q > bestQ) {
      best = encoding;
      bestQ = q;
    }
  }
  return best;
}

/** What is worth compressing: the handler's event streams and JSON answers. */
export function isCompressible(contentType: string | null): boolean {
  return contentType !== null && /^(text\/event-stream|application\/json)\b/i.test(contentType);
}

/**
 * A compressor that flushes after every write, so each chunk of an event stream reaches the
 * client whole (nothing waits for the compressor's buffer to fill). Small windows: a stream's
 * repeats (frame headers, field names) are a few hundred bytes apart, and a compressor per open
 * stream must stay cheap in memory (about 40 KB for gzip here, against 256 KB at zlib's defaults).
 */
export function createResponseCompressor(encoding: ResponseEncoding): Gzip | BrotliCompress {
  if (encoding === 'gzip') return createGzip({ level: 6, windowBits: 12, memLevel: 6, flush: constants.Z_SYNC_FLUSH });
  return createBrotliCompress({
    flush: constants.BROTLI_OPERATION_FLUSH,
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 16, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
  });
}

/** Adds `accept-encoding` to a response's `vary` header (a cache must key on it once the body depends on it). */
export function varyOnAcceptEncoding(headers: Record<string, string | string[]>): void {
  const vary = headers.vary;
  const current = Array.isArray(vary) ? vary.join(', ') : (vary ?? '');
  if (/(^|,)\s*(\*|accept-encoding)\s*(,|$)/i.test(current)) return;
  headers.vary = current ? `${current}, accept-encoding` : 'accept-encoding';
}

/** A chunk of a response body: bytes, or text (an event stream's; written as UTF-8). */
export type BodyChunk = Uint8Array | string;

/**
 * Where a response body goes: the socket itself, or a compressor piped to it. `write` returns
 * false when the writer should wait for `drained()`.
 */
export interface BodySink {
  write(chunk: BodyChunk): boolean;
  drained(): Promise<void>;
  end(): void;
  destroy(): void;
}

export function socketSink(res: ServerResponse): BodySink {
  return {
    write(chunk) {
      const ok = res.write(chunk);
      // Compression middleware buffers; its `flush()` pushes each event out at once.
      (res as { flush?: () => void }).flush?.();
      return ok;
    },
    drained: () => drainOf(res, res),
    end: () => res.end(),
    destroy: () => res.destroy(),
  };
}

export function compressedSink(res: ServerResponse, encoding: ResponseEncoding): BodySink {
  const compressor = createResponseCompressor(encoding);
  // pipe() stops reading the compressor while the socket is full, so the compressor's own buffer
  // fills and `write` says to wait: backpressure reaches the event feed as without compression.
  compressor.pipe(res);
  compressor.on('error', () => res.destroy());
  return {
    write: (chunk) => compressor.write(chunk),
    drained: () => drainOf(compressor, res),
    end: () => compressor.end(),
    destroy() {
      compressor.destroy();
      res.destroy();
    },
  };
}

/** Resolves when `stream` wants more data, or when the response closed (then nothing more is written). */
function drainOf(stream: NodeJS.EventEmitter, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      res.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    res.on('close', done);
  });
}
