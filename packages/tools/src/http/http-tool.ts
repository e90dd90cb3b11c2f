import { z } from 'zod';
import { defineTool, ERROR_CODES, SDKError, type DefinedTool, type NeedsApproval, type ToolExecutionContext } from '@lousho/core';
import { createDefaultTransport } from './default-transport.js';
import { createFetchTransport } from './fetch-transport.js';
import { HTTP_TOOL_ERROR_CODES, HttpToolError } from './http-errors.js';
import { createNetworkPolicy, type NetworkAccessOptions, type NetworkPolicy } from './network-policy.js';
import { DEFAULT_RESPONSE_HEADERS, decodeBody, isTextContent, pickHeaders } from './response-format.js';
import type { HostResolver, HttpTransport, HttpTransportResponse } from './transport.js';

/** The methods the `http` tool accepts. */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** One of `HTTP_METHODS`. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** What the model sends to the `http` tool. */
export interface HttpToolArgs {
  method: HttpMethod;
  url: string;
  headers?: Record<string, string> | undefined;
  body?: string | Record<string, unknown> | unknown[] | undefined;
}

/** What the `http` tool returns: the final URL, the status, the headers and the body (`truncated` when cut at the size limit). */
export interface HttpToolResult {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  statusText: string;
  /** True for a 2xx status. */
  ok: boolean;
  /** A safe subset of the response headers (see `responseHeaders`). */
  headers: Record<string, string>;
  /** The body as text, at most `maxResponseBytes` bytes of it. Empty for binary content and HEAD. */
  body: string;
  /** True when the body was cut at `maxResponseBytes`. */
  truncated: boolean;
  /** The URLs of the redirects that were followed, in order; absent when there were none. */
  redirects?: string[];
  /** Why the body is cut or left out, when it is. */
  note?: string;
}

/** The `http` tool, as `createHttpTool()` returns it. */
export type HttpTool = DefinedTool<string, HttpToolArgs, HttpToolResult>;

export interface HttpToolOptions extends NetworkAccessOptions {
  /** Tool name. Default `http`. */
  name?: string;
  /** Replaces the description the model reads. */
  description?: string;
  /** Methods the model may use. Default: all of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS. */
  methods?: readonly HttpMethod[];
  /** Largest body returned, in bytes after decompression; the rest is not downloaded. Default 100,000. */
  maxResponseBytes?: number;
  /** Redirects followed (each one re-checked); 0 returns the 3xx response itself. Default 5. */
  maxRedirects?: number;
  /** Time limit of the whole call, redirects included, in ms. Default 30,000. */
  timeoutMs?: number;
  /** `User-Agent` sent when the model sets none. Default `lousho-http-tool`. */
  userAgent?: string;
  /** Response headers passed on to the model (lower-case names). Default: content and caching headers only. */
  responseHeaders?: readonly string[];
  /** Pause for a human decision, e.g. `({ method }) => method !== 'GET'`. */
  needsApproval?: NeedsApproval<HttpToolArgs>;
  /**
   * Send requests with this `fetch` instead of the default transport. Only the URL's host is
   * checked then (IP literals and internal names), since `fetch` resolves names itself.
   */
  fetch?: typeof fetch;
  /** Send requests through a custom transport (tests, proxies). It must call `checkResolvedAddress`. */
  transport?: HttpTransport;
  /** How the default Node transport resolves hostnames (tests, custom DNS). */
  resolve?: HostResolver;
}

const DEFAULT_MAX_RESPONSE_BYTES = 100_000;
const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_TIMEOUT_MS = 30_000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Set by the transport from the URL and body; a value from the model could smuggle requests.
const RESERVED_REQUEST_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);
// Credentials that must not follow a redirect to another origin.
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE_FORBIDDEN = /[\r\n\0]/;

/**
 * Builds an HTTP tool with SSRF protection. Before any connection, the URL's host and (in Node)
 * every address it resolves to are checked; loopback, private, link-local, metadata and other
 * special addresses are refused unless the options allow them. The connection then goes to a
 * checked address, and each redirect is checked the same way.
 */
export function createHttpTool(options: HttpToolOptions = {}): HttpTool {
  const policy = createNetworkPolicy(options);
  const methods = validateMethods(options.methods);
  const maxResponseBytes = positiveInteger('maxResponseBytes', options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES);
  const maxRedirects = nonNegativeInteger('maxRedirects', options.maxRedirects, DEFAULT_MAX_REDIRECTS);
  const timeoutMs = positiveInteger('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS);
  const exposedHeaders = new Set((options.responseHeaders ?? DEFAULT_RESPONSE_HEADERS).map((name) => name.toLowerCase()));
  const transport = chooseTransport(options);
  const settings: RequestSettings = {
    policy,
    transport,
    maxResponseBytes,
    maxRedirects,
    timeoutMs,
    exposedHeaders,
    userAgent: options.userAgent ?? 'lousho-http-tool',
  };

  const input = z.object({
    method: z.enum(methods).default(methods.includes('GET') ? 'GET' : methods[0]).describe('HTTP method.'),
    url: z.string().min(1).describe('Absolute http:// or https:// URL.'),
    headers: z.record(z.string(), z.string()).optional().describe('Request headers.'),
    body: z
      .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
      .optional()
      .describe('Request body: text, or a JSON object/array (sent as application/json).'),
  });

  return defineTool({
    name: options.name ?? 'http',
    displayName: 'HTTP request',
    description:
      options.description ??
      `Make an HTTP request to a public http(s) URL and get the status, main headers and body as text (at most ${maxResponseBytes} bytes). Methods: ${methods.join(', ')}. Redirects are followed.`,
    input,
    ...(options.needsApproval !== undefined ? { needsApproval: options.needsApproval } : {}),
    execute: (args: HttpToolArgs, ctx: ToolExecutionContext) => performRequest(args, ctx, settings),
  }) as HttpTool;
}

/** The `http` tool with the default options: public internet only, 100 KB bodies, 5 redirects, 30 s. */
export const httpTool: HttpTool = createHttpTool();

interface RequestSettings {
  policy: NetworkPolicy;
  transport: HttpTransport;
  maxResponseBytes: number;
  maxRedirects: number;
  timeoutMs: number;
  exposedHeaders: ReadonlySet<string>;
  userAgent: string;
}

async function performRequest(args: HttpToolArgs, ctx: ToolExecutionContext, settings: RequestSettings): Promise<HttpToolResult> {
  let url = parseTargetUrl(args.url);
  let method: string = args.method;
  const headers = requestHeaders(args.headers, settings.userAgent);
  let body = requestBody(args.body, headers);
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) {
    throw new HttpToolError(
      HTTP_TOOL_ERROR_CODES.INVALID_REQUEST,
      `A ${method} request cannot carry a body. Use POST, PUT or PATCH to send one, or put the data in the URL's query string.`,
    );
  }

  const limit = timeLimit(ctx.abortSignal, settings.timeoutMs);
  const redirects: string[] = [];
  try {
    for (;;) {
      if (limit.signal.aborted) throw limit.signal.reason;
      checkTarget(url, settings.policy);
      const response = await settings.transport({
        url,
        method,
        headers: { ...headers },
        ...(body !== undefined ? { body } : {}),
        signal: limit.signal,
        maxResponseBytes: settings.maxResponseBytes,
        checkResolvedAddress: (hostname, address) => settings.policy.checkResolvedAddress(hostname, address),
      });
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.status) || location === undefined || settings.maxRedirects === 0) {
        return formatResult(url, method, response, redirects, settings);
      }
      if (redirects.length >= settings.maxRedirects) {
        throw new HttpToolError(
          HTTP_TOOL_ERROR_CODES.TOO_MANY_REDIRECTS,
          `Stopped after ${settings.maxRedirects} redirects (last one to ${location}). Request the final URL directly.`,
        );
      }
      const next = redirectTarget(location, url);
      // 303 always, and 301/302 after a POST (as browsers do), turn into a GET without a body.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        delete headers['content-type'];
      }
      if (next.origin !== url.origin) for (const name of ORIGIN_BOUND_HEADERS) delete headers[name];
      redirects.push(next.href);
      url = next;
    }
  } catch (error) {
    throw limit.explain(error, url);
  } finally {
    limit.dispose();
  }
}

function parseTargetUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new HttpToolError(
      HTTP_TOOL_ERROR_CODES.INVALID_URL,
      `'${text}' is not a valid absolute URL. Give a full URL such as https://example.com/path.`,
    );
  }
  return url;
}

function redirectTarget(location: string, base: URL): URL {
  try {
    return new URL(location, base);
  } catch {
    throw new HttpToolError(
      HTTP_TOOL_ERROR_CODES.INVALID_URL,
      `${base.origin} redirected to '${location}', which is not a valid URL.`,
    );
  }
}

/** Scheme, credentials and host checks that hold for every hop. */
function checkTarget(url: URL, policy: NetworkPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HttpToolError(
      HTTP_TOOL_ERROR_CODES.SCHEME_NOT_ALLOWED,
      `Only http:// and https:// URLs can be requested, not '${url.protocol}' (${url.href.slice(0, 100)}).`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new HttpToolError(
      HTTP_TOOL_ERROR_CODES.INVALID_URL,
      'URLs with a user name or password are not accepted. Send credentials in an Authorization header instead.',
    );
  }
  policy.checkHost(url.hostname);
}

function requestHeaders(given: Record<string, string> | undefined, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(given ?? {})) {
    const name = rawName.trim().toLowerCase();
    if (!HEADER_NAME.test(name)) {
      throw new HttpToolError(HTTP_TOOL_ERROR_CODES.HEADER_NOT_ALLOWED, `'${rawName}' is not a valid header name.`);
    }
    if (RESERVED_REQUEST_HEADERS.has(name)) {
      throw new HttpToolError(
        HTTP_TOOL_ERROR_CODES.HEADER_NOT_ALLOWED,
        `The '${name}' header is set by the tool itself; leave it out.`,
      );
    }
    if (HEADER_VALUE_FORBIDDEN.test(value)) {
      throw new HttpToolError(
        HTTP_TOOL_ERROR_CODES.HEADER_NOT_ALLOWED,
        `The value of the '${name}' header contains a line break or NUL character, which headers cannot carry.`,
      );
    }
    headers[name] = value;
  }
  headers['user-agent'] ??= userAgent;
  return headers;
}

function requestBody(body: HttpToolArgs['body'], headers: Record<string, string>): string | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return body;
  headers['content-type'] ??= 'application/json';
  return JSON.stringify(body);
}

function formatResult(
  url: URL,
  method: string,
  response: HttpTransportResponse,
  redirects: string[],
  settings: RequestSettings,
): HttpToolResult {
  const contentType = response.headers['content-type'];
  const result: HttpToolResult = {
    url: url.href,
    status: response.status,
    statusText: response.statusText,
    ok: response.status >= 200 && response.status < 300,
    headers: pickHeaders(response.headers, settings.exposedHeaders),
    body: '',
    truncated: false,
  };
  if (redirects.length > 0) result.redirects = redirects;
  if (method === 'HEAD') return result;
  if (!isTextContent(contentType)) {
    result.note = `The body is binary (${contentType ?? 'unknown type'}, ${response.body.byteLength}${response.truncated ? '+' : ''} bytes) and is not returned as text.`;
    return result;
  }
  result.body = decodeBody(response.body, contentType, response.truncated);
  if (response.truncated) {
    result.truncated = true;
    result.note = `The body was cut after ${settings.maxResponseBytes} bytes (maxResponseBytes); the rest was not downloaded.`;
  }
  return result;
}

interface TimeLimit {
  signal: AbortSignal;
  /** Turns a failure into what the caller should see: the run's abort, a timeout, or a clear request error. */
  explain(error: unknown, url: URL): unknown;
  dispose(): void;
}

/** One signal for the whole call: aborted by the run's signal or when `timeoutMs` has passed. */
function timeLimit(runSignal: AbortSignal | undefined, timeoutMs: number): TimeLimit {
  const controller = new AbortController();
  let timedOut = false;
  const onRunAbort = (): void => controller.abort(runSignal?.reason);
  if (runSignal?.aborted) controller.abort(runSignal.reason);
  else runSignal?.addEventListener('abort', onRunAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new HttpToolError(HTTP_TOOL_ERROR_CODES.TIMEOUT, `The request took longer than ${timeoutMs} ms.`));
  }, timeoutMs);
  return {
    signal: controller.signal,
    explain(error, url) {
      if (runSignal?.aborted) return runSignal.reason ?? error;
      if (timedOut) {
        return new HttpToolError(
          HTTP_TOOL_ERROR_CODES.TIMEOUT,
          `The request to ${url.origin} took longer than ${timeoutMs} ms and was stopped. Try again later or a lighter request.`,
        );
      }
      if (error instanceof HttpToolError) return error;
      const message = error instanceof Error ? error.message : String(error);
      return new HttpToolError(HTTP_TOOL_ERROR_CODES.REQUEST_FAILED, `Request to ${url.origin} failed: ${message}`, {
        cause: error,
      });
    },
    dispose() {
      clearTimeout(timer);
      runSignal?.removeEventListener('abort', onRunAbort);
    },
  };
}

function chooseTransport(options: HttpToolOptions): HttpTransport {
  const given = [options.transport && 'transport', options.fetch && 'fetch', options.resolve && 'resolve'].filter(Boolean);
  if (given.length > 1) {
    throw new SDKError(
      ERROR_CODES.LOUSHO_INVALID_INPUT,
      `createHttpTool(): pass only one of ${given.join(' and ')}; each picks how requests are sent.`,
      { hint: 'Use `resolve` with the default Node transport, `fetch` for a Fetch API function, or `transport` for full control.' },
    );
  }
  if (options.transport) return options.transport;
  if (options.fetch) return createFetchTransport(options.fetch);
  return createDefaultTransport(options.resolve);
}

function validateMethods(methods: readonly HttpMethod[] | undefined): [HttpMethod, ...HttpMethod[]] {
  const list = [...new Set(methods ?? HTTP_METHODS)];
  const unknown = list.filter((method) => !(HTTP_METHODS as readonly string[]).includes(method));
  if (list.length === 0 || unknown.length > 0) {
    throw new SDKError(
      ERROR_CODES.LOUSHO_INVALID_INPUT,
      `createHttpTool(): methods must be a non-empty list of ${HTTP_METHODS.join(', ')}${unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''}.`,
    );
  }
  return list as [HttpMethod, ...HttpMethod[]];
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, `createHttpTool(): ${name} must be a positive integer, got ${String(value)}.`);
  }
  return value;
}

function nonNegativeInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, `createHttpTool(): ${name} must be 0 or a positive integer, got ${String(value)}.`);
  }
  return value;
}
