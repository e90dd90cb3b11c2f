import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNodeHttpTransport } from '../src/node/http-transport.js';
import { createHttpTool, httpTool, type HttpToolOptions } from '../src/http/http-tool.js';
import type { HostResolver, HttpTransport } from '../src/http/transport.js';
import { callTool, expectResult, expectToolError } from './helpers.js';

/*
 * A real node:http server on 127.0.0.1. Tests that must be refused run through a guarded
 * transport that throws instead of connecting anywhere but this machine, so a broken check fails
 * the test without sending traffic to a private or metadata address.
 */

let server: Server;
let origin: string;
let port: number;
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
let onSlowRequest: ((response: ServerResponse, request: IncomingMessage) => void) | undefined;

const routes: Record<string, (request: IncomingMessage, response: ServerResponse, body: string) => void> = {
  '/hello': (_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/plain; charset=utf-8',
      'set-cookie': 'session=secret',
      'x-internal-trace': 'node-7',
      etag: '"v1"',
    });
    res.end('hello from lousho');
  },
  '/echo': (req, res, body) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
  },
  '/big': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = 'a'.repeat(16_384);
    for (let i = 0; i < 64; i += 1) res.write(chunk);
    res.end();
  },
  '/accents': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('é'.repeat(1000));
  },
  '/gzip': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    res.end(gzipSync('compressed text '.repeat(100)));
  },
  '/image': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
  },
  '/missing': (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('nothing here');
  },
  '/redirect': (req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/hello';
    const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? 302);
    res.writeHead(status, { location: to });
    res.end();
  },
  '/loop': (_req, res) => {
    res.writeHead(302, { location: '/loop' });
    res.end();
  },
  '/slow': (req, res) => {
    onSlowRequest?.(res, req);
  },
};

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const route = routes[path];
      if (route) route(request, response, body);
      else {
        response.writeHead(500);
        response.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
  onSlowRequest = undefined;
});

/** Test DNS: names map to loopback (and, for `mixed.example`, to a private address too). */
const testResolver: HostResolver = async (hostname) => {
  const table: Record<string, string[]> = {
    'evil.example': ['127.0.0.1'],
    'trusted.example': ['127.0.0.1'],
    'mixed.example': ['127.0.0.1', '10.0.0.1'],
  };
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: 4 as const }));
};

/** Node transport that refuses to connect anywhere but this test server. */
function guardedTransport(): { transport: HttpTransport; attempts: string[] } {
  const inner = createNodeHttpTransport({ resolve: testResolver });
  const attempts: string[] = [];
  const transport: HttpTransport = (request) => {
    attempts.push(request.url.href);
    const host = request.url.hostname;
    if (!['127.0.0.1', 'evil.example', 'trusted.example', 'mixed.example', '[::ffff:7f00:1]'].includes(host)) {
      throw new Error(`test guard: the tool tried to connect to ${request.url.href}`);
    }
    return inner(request);
  };
  return { transport, attempts };
}

const loopbackTool = (options: HttpToolOptions = {}) => createHttpTool({ allowLoopback: true, resolve: testResolver, ...options });

describe('http tool: requests', () => {
  it('is named http and fetches a text body with a safe subset of headers', async () => {
    expect(httpTool.name).toBe('http');
    const result = await expectResult(loopbackTool(), { url: `${origin}/hello` });
    expect(result).toMatchObject({ status: 200, statusText: 'OK', ok: true, body: 'hello from lousho', truncated: false });
    expect(result.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(result.headers.etag).toBe('"v1"');
    expect(result.headers).not.toHaveProperty('set-cookie');
    expect(result.headers).not.toHaveProperty('x-internal-trace');
  });

  it('sends method, headers and a JSON body', async () => {
    const result = await expectResult(loopbackTool(), {
      method: 'POST',
      url: `${origin}/echo`,
      headers: { 'X-Request-Id': 'abc' },
      body: { order: 42 },
    });
    const echoed = JSON.parse(result.body) as { method: string; headers: Record<string, string>; body: string };
    expect(echoed.method).toBe('POST');
    expect(echoed.headers['x-request-id']).toBe('abc');
    expect(echoed.headers['content-type']).toBe('application/json');
    expect(echoed.headers['user-agent']).toBe('lousho-http-tool');
    expect(JSON.parse(echoed.body)).toEqual({ order: 42 });
  });

  it('returns error statuses as results, not failures', async () => {
    const result = await expectResult(loopbackTool(), { url: `${origin}/missing` });
    expect(result).toMatchObject({ status: 404, ok: false, body: 'nothing here' });
  });

  it('decompresses gzip bodies', async () => {
    const result = await expectResult(loopbackTool(), { url: `${origin}/gzip` });
    expect(result.body).toBe('compressed text '.repeat(100));
  });

  it('does not return binary bodies as text', async () => {
    const result = await expectResult(loopbackTool(), { url: `${origin}/image` });
    expect(result.body).toBe('');
    expect(result.note).toMatch(/binary \(image\/png, 8 bytes\)/);
  });

  it('refuses a body on GET and headers the transport owns', async () => {
    const tool = loopbackTool();
    expect((await expectToolError(tool, { method: 'GET', url: `${origin}/echo`, body: 'x' })).message).toMatch(/cannot carry a body/);
    expect((await expectToolError(tool, { url: `${origin}/echo`, headers: { Host: 'internal' } })).message).toMatch(/'host' header/);
    expect((await expectToolError(tool, { url: `${origin}/echo`, headers: { 'x-a': 'b\r\nx-b: c' } })).message).toMatch(/line break/);
    expect(seen).toHaveLength(0);
  });

  it('limits methods to the configured list in the input schema', async () => {
    const error = await expectToolError(loopbackTool({ methods: ['GET'] }), { method: 'DELETE', url: `${origin}/echo` });
    expect(error.kind).toBe('validation');
    expect(seen).toHaveLength(0);
  });
});

describe('http tool: response cap', () => {
  it('cuts the body at maxResponseBytes and says so', async () => {
    const result = await expectResult(loopbackTool({ maxResponseBytes: 1000 }), { url: `${origin}/big` });
    expect(result.body).toBe('a'.repeat(1000));
    expect(result.truncated).toBe(true);
    expect(result.note).toMatch(/cut after 1000 bytes/);
  });

  it('does not leave half a UTF-8 character at the cut', async () => {
    // 'é' is two bytes: 1001 bytes hold 500 whole characters and half of one more.
    const result = await expectResult(loopbackTool({ maxResponseBytes: 1001 }), { url: `${origin}/accents` });
    expect(result.body).toBe('é'.repeat(500));
    expect(result.truncated).toBe(true);
  });

  it('returns a body that fits whole, untruncated', async () => {
    const result = await expectResult(loopbackTool({ maxResponseBytes: 2000 }), { url: `${origin}/accents` });
    expect(result.body).toBe('é'.repeat(1000));
    expect(result.truncated).toBe(false);
  });
});

describe('http tool: SSRF protection', () => {
  it('refuses 127.0.0.1 by default, before any request reaches the server', async () => {
    const { transport } = guardedTransport();
    const error = await expectToolError(createHttpTool({ transport }), { url: `${origin}/hello` });
    expect(error).toMatchObject({ error: 'SsrfBlockedError', toolName: 'http', kind: 'execution' });
    expect(error.message).toMatch(/127\.0\.0\.1.*loopback/);
    expect(seen).toHaveLength(0);
  });

  it('the default httpTool refuses loopback too', async () => {
    const error = await expectToolError(httpTool, { url: `${origin}/hello` });
    expect(error.error).toBe('SsrfBlockedError');
    expect(seen).toHaveLength(0);
  });

  it('refuses localhost by name and IPv4-mapped IPv6 loopback', async () => {
    const { transport } = guardedTransport();
    const tool = createHttpTool({ transport });
    expect((await expectToolError(tool, { url: `http://localhost:${port}/hello` })).error).toBe('SsrfBlockedError');
    const mapped = await expectToolError(tool, { url: `http://[::ffff:127.0.0.1]:${port}/hello` });
    expect(mapped.error).toBe('SsrfBlockedError');
    expect(mapped.message).toMatch(/IPv4-mapped/);
    expect(seen).toHaveLength(0);
  });

  it('refuses a hostname that resolves to a loopback address (checked after DNS, before connecting)', async () => {
    const error = await expectToolError(createHttpTool({ resolve: testResolver }), { url: `http://evil.example:${port}/hello` });
    expect(error.error).toBe('SsrfBlockedError');
    expect(error.message).toMatch(/evil\.example.*127\.0\.0\.1/);
    expect(seen).toHaveLength(0);
  });

  it('checks every resolved address, not only the one it would connect to first', async () => {
    const error = await expectToolError(loopbackTool(), { url: `http://mixed.example:${port}/hello` });
    expect(error.error).toBe('SsrfBlockedError');
    expect(error.message).toMatch(/10\.0\.0\.1/);
    expect(seen).toHaveLength(0);
  });

  it('connects to the checked address when the name is allowed', async () => {
    const result = await expectResult(loopbackTool(), { url: `http://evil.example:${port}/echo` });
    const echoed = JSON.parse(result.body) as { headers: Record<string, string> };
    // The Host header still names the host; only the socket went to the pinned address.
    expect(echoed.headers.host).toBe(`evil.example:${port}`);
  });

  it('reports a name that does not resolve as a DNS failure', async () => {
    const error = await expectToolError(loopbackTool(), { url: 'http://nowhere.example/' });
    expect(error).toMatchObject({ error: 'HttpToolError' });
    expect(error.message).toMatch(/Could not resolve 'nowhere\.example' \(ENOTFOUND\)/);
  });

  it('allowedHosts trusts a name whatever it resolves to', async () => {
    const result = await expectResult(createHttpTool({ resolve: testResolver, allowedHosts: ['trusted.example'] }), {
      url: `http://trusted.example:${port}/hello`,
    });
    expect(result.body).toBe('hello from lousho');
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://[fd00:ec2::254]/latest/meta-data/',
  ])('refuses the metadata endpoint %s even with allowPrivateNetwork', async (url) => {
    const { transport, attempts } = guardedTransport();
    const error = await expectToolError(createHttpTool({ transport, allowPrivateNetwork: true }), { url });
    expect(error.error).toBe('SsrfBlockedError');
    expect(attempts).toHaveLength(0);
  });

  it.each(['http://10.0.0.1/', 'http://192.168.1.1/', 'http://[fe80::1]/', 'http://0.0.0.0/', 'http://[::]/', 'http://2130706433/'])(
    'refuses %s',
    async (url) => {
      const { transport, attempts } = guardedTransport();
      const error = await expectToolError(createHttpTool({ transport }), { url });
      expect(error.error).toBe('SsrfBlockedError');
      expect(attempts).toHaveLength(0);
    },
  );

  it.each(['file:///etc/passwd', 'ftp://example.com/file', 'gopher://example.com/', 'javascript:alert(1)'])(
    'refuses the non-http scheme of %s',
    async (url) => {
      const { transport, attempts } = guardedTransport();
      const error = await expectToolError(createHttpTool({ transport }), { url });
      expect(error.message).toMatch(/Only http:\/\/ and https:\/\//);
      expect(attempts).toHaveLength(0);
    },
  );

  it('refuses relative URLs and URLs with credentials with a clear message', async () => {
    const tool = loopbackTool();
    expect((await expectToolError(tool, { url: '/hello' })).message).toMatch(/not a valid absolute URL/);
    expect((await expectToolError(tool, { url: `http://user:pw@127.0.0.1:${port}/hello` })).message).toMatch(/Authorization header/);
    expect(seen).toHaveLength(0);
  });
});

describe('http tool: redirects', () => {
  it('follows redirects and reports the hops', async () => {
    const result = await expectResult(loopbackTool(), { url: `${origin}/redirect?to=/hello` });
    expect(result.body).toBe('hello from lousho');
    expect(result.url).toBe(`${origin}/hello`);
    expect(result.redirects).toEqual([`${origin}/hello`]);
  });

  it('re-checks each hop: a redirect to a private address is refused before connecting', async () => {
    const { transport, attempts } = guardedTransport();
    const tool = createHttpTool({ transport, allowLoopback: true });
    const error = await expectToolError(tool, { url: `${origin}/redirect?to=${encodeURIComponent('http://10.0.0.1/admin')}` });
    expect(error.error).toBe('SsrfBlockedError');
    expect(attempts).toEqual([`${origin}/redirect?to=${encodeURIComponent('http://10.0.0.1/admin')}`]);
  });

  it('re-checks each hop: a redirect to the metadata endpoint or to file: is refused', async () => {
    const { transport, attempts } = guardedTransport();
    const tool = createHttpTool({ transport, allowLoopback: true });
    const metadata = await expectToolError(tool, { url: `${origin}/redirect?to=${encodeURIComponent('http://169.254.169.254/')}` });
    expect(metadata.error).toBe('SsrfBlockedError');
    const file = await expectToolError(tool, { url: `${origin}/redirect?to=${encodeURIComponent('file:///etc/passwd')}` });
    expect(file.message).toMatch(/Only http:\/\/ and https:\/\//);
    expect(attempts).toHaveLength(2);
  });

  it('stops after maxRedirects', async () => {
    const error = await expectToolError(loopbackTool({ maxRedirects: 3 }), { url: `${origin}/loop` });
    expect(error.message).toMatch(/Stopped after 3 redirects/);
    expect(seen).toHaveLength(4);
  });

  it('returns the 3xx response itself when maxRedirects is 0', async () => {
    const result = await expectResult(loopbackTool({ maxRedirects: 0 }), { url: `${origin}/redirect?to=/hello` });
    expect(result.status).toBe(302);
    expect(result.headers.location).toBe('/hello');
  });

  it('turns a POST into a GET without body on 303, and keeps method and body on 307', async () => {
    const tool = loopbackTool();
    const seeOther = await expectResult(tool, { method: 'POST', url: `${origin}/redirect?status=303&to=/echo`, body: 'data' });
    expect(JSON.parse(seeOther.body)).toMatchObject({ method: 'GET', body: '' });
    const temporary = await expectResult(tool, { method: 'POST', url: `${origin}/redirect?status=307&to=/echo`, body: 'data' });
    expect(JSON.parse(temporary.body)).toMatchObject({ method: 'POST', body: 'data' });
  });

  it('drops credentials when a redirect leaves the origin', async () => {
    const tool = loopbackTool();
    const sameOrigin = await expectResult(tool, {
      url: `${origin}/redirect?to=/echo`,
      headers: { authorization: 'Bearer t' },
    });
    expect((JSON.parse(sameOrigin.body) as { headers: Record<string, string> }).headers.authorization).toBe('Bearer t');
    const otherOrigin = await expectResult(tool, {
      url: `${origin}/redirect?to=${encodeURIComponent(`http://evil.example:${port}/echo`)}`,
      headers: { authorization: 'Bearer t' },
    });
    expect((JSON.parse(otherOrigin.body) as { headers: Record<string, string> }).headers).not.toHaveProperty('authorization');
  });
});

describe('http tool: cancellation and time limit', () => {
  it("passes the run's abort signal to the request", async () => {
    const controller = new AbortController();
    const closed = new Promise<void>((resolve) => {
      onSlowRequest = (response) => {
        response.on('close', () => resolve());
        controller.abort(new Error('run stopped'));
      };
    });
    const outcome = await callTool(loopbackTool(), { url: `${origin}/slow` }, { abortSignal: controller.signal });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toBe('run stopped');
    // The server sees the connection go away: the request was really cancelled.
    await closed;
  });

  it('does not start a request when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await callTool(loopbackTool(), { url: `${origin}/hello` }, { abortSignal: controller.signal });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.error).toBe('AbortError');
    expect(seen).toHaveLength(0);
  });

  it('fails with a timeout error after timeoutMs', async () => {
    onSlowRequest = () => undefined; // never answers
    const error = await expectToolError(loopbackTool({ timeoutMs: 50 }), { url: `${origin}/slow` });
    expect(error).toMatchObject({ error: 'HttpToolError' });
    expect(error.message).toMatch(/took longer than 50 ms/);
  });
});

describe('http tool: fetch transport', () => {
  it('works with an injected fetch and still checks the URL host', async () => {
    const calls: string[] = [];
    const fetchSpy: typeof fetch = (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    };
    const allowed = await expectResult(createHttpTool({ fetch: fetchSpy, allowLoopback: true }), { url: `${origin}/hello` });
    expect(allowed.body).toBe('hello from lousho');
    const refused = await expectToolError(createHttpTool({ fetch: fetchSpy }), { url: `${origin}/hello` });
    expect(refused.error).toBe('SsrfBlockedError');
    expect(calls).toEqual([`${origin}/hello`]);
  });

  it('caps the body with fetch too', async () => {
    const result = await expectResult(createHttpTool({ fetch, allowLoopback: true, maxResponseBytes: 10 }), { url: `${origin}/big` });
    expect(result.body).toBe('a'.repeat(10));
    expect(result.truncated).toBe(true);
  });
});

describe('http tool: options', () => {
  it('rejects conflicting or invalid options when created', () => {
    expect(() => createHttpTool({ fetch, resolve: testResolver })).toThrow(/only one of fetch and resolve/);
    expect(() => createHttpTool({ maxResponseBytes: 0 })).toThrow(/maxResponseBytes must be a positive integer/);
    expect(() => createHttpTool({ methods: [] })).toThrow(/methods must be a non-empty list/);
  });
});
