import { concatBytes } from './concat-bytes.js';
import { HTTP_TOOL_ERROR_CODES, HttpToolError } from './http-errors.js';
import type { HttpTransport, HttpTransportResponse } from './transport.js';

/**
 * A transport over the Fetch API, for runtimes without `node:http` (browsers, workers, edge).
 *
 * Limitation: `fetch` resolves hostnames itself and does not say where it connected, so only the
 * URL's host is checked (IP literals and internal-only names). A public name that resolves to a
 * private address is NOT caught here; in Node the default transport checks every resolved address.
 */
export function createFetchTransport(fetchImpl: typeof fetch = globalThis.fetch): HttpTransport {
  if (typeof fetchImpl !== 'function') {
    throw new HttpToolError(
      HTTP_TOOL_ERROR_CODES.UNSUPPORTED_RUNTIME,
      'No fetch() is available in this runtime; pass `fetch` or `transport` to createHttpTool().',
    );
  }
  return async (request) => {
    const init: RequestInit = {
      method: request.method,
      headers: request.headers,
      redirect: 'manual',
      signal: request.signal,
    };
    if (request.body !== undefined) init.body = request.body;
    const response = await fetchImpl(request.url.toString(), init);
    if (response.type === 'opaqueredirect') {
      await response.body?.cancel().catch(() => undefined);
      throw new HttpToolError(
        HTTP_TOOL_ERROR_CODES.REQUEST_FAILED,
        `${request.url.origin} answered with a redirect that this runtime hides from scripts, so it cannot be checked and followed. Request the final URL directly.`,
      );
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const { body, truncated } = await readCapped(response, request.maxResponseBytes);
    const result: HttpTransportResponse = {
      status: response.status,
      statusText: response.statusText,
      headers,
      body,
      truncated,
    };
    return result;
  };
}

async function readCapped(response: Response, limit: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (!response.body) return { body: new Uint8Array(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = limit - size;
    if (value.byteLength > room) {
      if (room > 0) chunks.push(value.subarray(0, room));
      size += Math.max(room, 0);
      truncated = true;
      // Stop downloading: the rest will not be used.
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return { body: concatBytes(chunks, size), truncated };
}
