import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { concatBytes } from '../http/concat-bytes.js';
import { HTTP_TOOL_ERROR_CODES, HttpToolError } from '../http/http-errors.js';
import type {
  HostResolver,
  HttpTransport,
  HttpTransportRequest,
  HttpTransportResponse,
  ResolvedAddress,
} from '../http/transport.js';

/** Options of the Node transport of the `http` tool. */
export interface NodeHttpTransportOptions {
  /** How hostnames are resolved. Default: `dns.lookup(name, { all: true })` (honours /etc/hosts). */
  resolve?: HostResolver;
}

/**
 * The `http` tool's transport in Node: resolves the hostname once, checks every address it got,
 * and connects only to those checked addresses (the socket's `lookup` is pinned to them), so a
 * DNS answer that changes between check and connect cannot slip through.
 */
export function createNodeHttpTransport(options: NodeHttpTransportOptions = {}): HttpTransport {
  const resolve = options.resolve ?? resolveWithSystemDns;
  return async (request) => {
    const hostname = bareHostname(request.url.hostname);
    const addresses = await resolveChecked(hostname, request, resolve);
    return send(request, addresses);
  };
}

async function resolveWithSystemDns(hostname: string): Promise<ResolvedAddress[]> {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
}

async function resolveChecked(
  hostname: string,
  request: HttpTransportRequest,
  resolve: HostResolver,
): Promise<ResolvedAddress[]> {
  const literalFamily = isIP(hostname);
  if (literalFamily !== 0) {
    request.checkResolvedAddress(hostname, hostname);
    return [{ address: hostname, family: literalFamily === 6 ? 6 : 4 }];
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await abortable(resolve(hostname), request.signal);
  } catch (error) {
    if (request.signal.aborted) throw error;
    const code = (error as { code?: unknown }).code;
    throw new HttpToolError(
      HTTP_TOOL_ERROR_CODES.DNS_FAILED,
      `Could not resolve '${hostname}'${typeof code === 'string' ? ` (${code})` : ''}. Check the hostname.`,
      { cause: error },
    );
  }
  if (addresses.length === 0) {
    throw new HttpToolError(HTTP_TOOL_ERROR_CODES.DNS_FAILED, `'${hostname}' has no addresses. Check the hostname.`);
  }
  // Every address is checked, not just the first: the socket may try any of them.
  for (const entry of addresses) request.checkResolvedAddress(hostname, entry.address);
  return addresses;
}

function send(request: HttpTransportRequest, addresses: ResolvedAddress[]): Promise<HttpTransportResponse> {
  return new Promise<HttpTransportResponse>((resolvePromise, rejectPromise) => {
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      rejectPromise(error);
    };
    const succeed = (value: HttpTransportResponse): void => {
      if (settled) return;
      settled = true;
      resolvePromise(value);
    };

    const url = request.url;
    const requestOptions: RequestOptions = {
      protocol: url.protocol,
      hostname: bareHostname(url.hostname),
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers: request.headers,
      // A fresh connection each time: a pooled socket might have been opened without these checks.
      agent: false,
      lookup: pinnedLookup(addresses),
      signal: request.signal,
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(requestOptions, (response) => {
      readResponse(response, request)
        .then(succeed, fail)
        .finally(() => outgoing.destroy());
    });
    outgoing.on('error', (error) => fail(request.signal.aborted ? abortReason(request.signal) : connectError(url, error)));
    if (request.body !== undefined) outgoing.write(request.body);
    outgoing.end();
  });
}

/** A `lookup` that answers only with the addresses that were already checked. */
function pinnedLookup(addresses: readonly ResolvedAddress[]) {
  return (
    _hostname: string,
    options: LookupOptions | number,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    const settings: LookupOptions = typeof options === 'number' ? { family: options } : (options ?? {});
    const family = settings.family === 'IPv4' ? 4 : settings.family === 'IPv6' ? 6 : settings.family;
    const usable = family === 4 || family === 6 ? addresses.filter((entry) => entry.family === family) : addresses;
    const first = usable[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error(`No checked IPv${String(family)} address`);
      error.code = 'ENOTFOUND';
      callback(error, '', undefined);
      return;
    }
    if (settings.all) callback(null, usable.map((entry) => ({ address: entry.address, family: entry.family })));
    else callback(null, first.address, first.family);
  };
}

async function readResponse(response: IncomingMessage, request: HttpTransportRequest): Promise<HttpTransportResponse> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const remoteAddress = response.socket?.remoteAddress;
  const { body, truncated } = await readCapped(decoded(response), request);
  const result: HttpTransportResponse = {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    headers,
    body,
    truncated,
  };
  if (remoteAddress) result.remoteAddress = remoteAddress;
  return result;
}

/** The body stream with its content-encoding undone, so the size cap applies to what is returned. */
function decoded(response: IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return response;
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

function readCapped(stream: Readable, request: HttpTransportRequest): Promise<{ body: Uint8Array; truncated: boolean }> {
  const limit = request.maxResponseBytes;
  return new Promise((resolvePromise, rejectPromise) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let done = false;
    const finish = (truncated: boolean): void => {
      if (done) return;
      done = true;
      request.signal.removeEventListener('abort', onAbort);
      resolvePromise({ body: concatBytes(chunks, size), truncated });
    };
    const onAbort = (): void => {
      if (done) return;
      done = true;
      stream.destroy();
      rejectPromise(abortReason(request.signal));
    };
    if (request.signal.aborted) {
      onAbort();
      return;
    }
    request.signal.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = limit - size;
      if (chunk.byteLength > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size += Math.max(room, 0);
        // Stop downloading: the rest will not be used.
        stream.destroy();
        finish(true);
        return;
      }
      chunks.push(chunk);
      size += chunk.byteLength;
    });
    stream.on('end', () => finish(false));
    stream.on('error', (error) => {
      if (done) return;
      done = true;
      request.signal.removeEventListener('abort', onAbort);
      rejectPromise(
        request.signal.aborted
          ? abortReason(request.signal)
          : new HttpToolError(HTTP_TOOL_ERROR_CODES.REQUEST_FAILED, `Reading the response failed: ${error.message}`, { cause: error }),
      );
    });
  });
}

function connectError(url: URL, error: Error): HttpToolError {
  if (error instanceof HttpToolError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new HttpToolError(
    HTTP_TOOL_ERROR_CODES.REQUEST_FAILED,
    `Request to ${url.origin} failed${code ? ` (${code})` : ''}: ${error.message}`,
    { cause: error },
  );
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The request was aborted.', 'AbortError');
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolvePromise, rejectPromise) => {
    const onAbort = (): void => rejectPromise(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolvePromise(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        rejectPromise(error);
      },
    );
  });
}

/** URL hostnames keep IPv6 literals in brackets; sockets and DNS want them bare. */
function bareHostname(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
