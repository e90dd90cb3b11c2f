import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgentHandler } from '@lousho/core';
import { createNodeListener, toNodeHandler, type FetchHandler } from '../../src/node/index.js';
import { agentWith, emailCall, emailTool, errorOf, gate, json, readSse, serve, type TestServer, lastStepText } from '../../../core/test/http/helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface RawResponse {
  status: number;
  body: string;
}

/** Sends `request` as raw bytes (so the test controls the request line and the Host header) and reads the answer. */
function raw(url: string, request: string): Promise<RawResponse> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      let body = rest.join('\r\n\r\n');
      if (/^transfer-encoding: chunked$/im.test(head)) body = unchunk(body);
      resolve({ status: Number(head.split(' ')[1]), body });
    });
    socket.write(request);
  });
}

/** A chunked body's data (ASCII bodies only: sizes count bytes). */
function unchunk(body: string): string {
  let out = '';
  for (let at = 0; ; ) {
    const end = body.indexOf('\r\n', at);
    const size = parseInt(body.slice(at, end), 16);
    if (!size) return out;
    out += body.slice(end + 2, end + 2 + size);
    at = end + 2 + size + 2;
  }
}

const get = (target: string, host: string | undefined) =>
  `GET ${target} HTTP/1.1\r\n${host === undefined ? '' : `Host: ${host}\r\n`}Connection: close\r\n\r\n`;

describe('the Node adapter: Host header and request target', () => {
  it.each(['[', 'a b', '%', '', 'evil.example/sessions', 'user@host', 'host:port'])('answers 400 LOUSHO_INVALID_INPUT for Host %j, and reports nothing', async (host) => {
    const onError = vi.fn();
    const handlerOnError = vi.fn();
    const { agent } = agentWith(['hi']);
    server = await serve(createNodeListener(agent, { onError: (error) => (onError(error), handlerOnError(error)) }));
    const response = await raw(server.url, get('/sessions/s1', host));
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: { code: 'LOUSHO_INVALID_INPUT', message: expect.stringContaining('Host') } });
    expect(onError).not.toHaveBeenCalled();
    expect(handlerOnError).not.toHaveBeenCalled();
  });

  it('takes a valid Host (name, IPv4, [IPv6], with a port) and keeps a target of //x a path, never a host', async () => {
    const seen: string[] = [];
    const handler: FetchHandler = (request) => {
      seen.push(request.url);
      return new Response('ok');
    };
    server = await serve(toNodeHandler(handler));
    for (const host of ['example.com', 'example.com:8080', '127.0.0.1:3000', '[::1]:3000', 'my_host.local']) {
      expect((await raw(server.url, get('/a?b=1', host))).status).toBe(200);
    }
    expect((await raw(server.url, get('//evil.example/sessions', 'app.example'))).status).toBe(200);
    expect((await raw(server.url, get('//x', 'app.example'))).status).toBe(200);
    expect(seen.map((url) => new URL(url).host)).toEqual(['example.com', 'example.com:8080', '127.0.0.1:3000', '[::1]:3000', 'my_host.local', 'app.example', 'app.example']);
    expect(new URL(seen[5]!).pathname).toBe('//evil.example/sessions');
    expect(new URL(seen[6]!).pathname).toBe('//x');
  });

  it('a target of //x reaches the agent handler as that path: its first segment is not taken for a host', async () => {
    const onError = vi.fn();
    const { agent } = agentWith(['hi']);
    server = await serve(createNodeListener(agent, { onError }));
    await readSse(await fetch(`${server.url}/sessions/s1/messages`, json({ input: 'hello' })));
    expect((await raw(server.url, get('/sessions/s1', 'app.example'))).status).toBe(200);
    // Resolved as a URL reference, this would be GET /sessions/s1 on host evil.example.
    const response = await raw(server.url, get('//evil.example/sessions/s1', 'app.example'));
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body).error.code).toBe('LOUSHO_ROUTE_NOT_FOUND');
    expect(onError).not.toHaveBeenCalled();
  });

  it('answers 400 for a request target that is neither a path nor an absolute URL', async () => {
    const onError = vi.fn();
    server = await serve(toNodeHandler(() => new Response('ok'), { onError }));
    const response = await raw(server.url, get('*', 'app.example'));
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).error.code).toBe('LOUSHO_INVALID_INPUT');
    expect(onError).not.toHaveBeenCalled();
  });
});

describe('a client that goes away while sending its body', () => {
  it('Fetch handler: 400 LOUSHO_BODY_INCOMPLETE, nothing reported, nothing started', async () => {
    const onError = vi.fn();
    const { agent, provider } = agentWith(['hi']);
    const handler = createAgentHandler(agent, { onError });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"input":"hel'));
        controller.error(new TypeError('terminated'));
      },
    });
    const response = await handler(
      new Request('http://agent.test/sessions/s1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit),
    );
    expect(await errorOf(response)).toMatchObject({ status: 400, code: 'LOUSHO_BODY_INCOMPLETE' });
    expect(onError).not.toHaveBeenCalled();
    expect(agent.sessions.get('s1')).toBeUndefined();
    expect(provider.calls).toHaveLength(0);
  });

  it('Node adapter: the aborted upload is answered to nobody and reported to nobody; the server goes on', async () => {
    const onError = vi.fn();
    const adapterOnError = vi.fn();
    const { agent, provider } = agentWith(['hi']);
    const handler = createAgentHandler(agent, { onError });
    const answered = gate<number>();
    server = await serve(
      toNodeHandler(
        async (request) => {
          const response = await handler(request);
          answered.open(response.status);
          return response;
        },
        { onError: adapterOnError },
      ),
    );
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('POST /sessions/s1/messages HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"input":"hel');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    expect(await answered.promise).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(onError).not.toHaveBeenCalled();
    expect(adapterOnError).not.toHaveBeenCalled();
    expect(provider.calls).toHaveLength(0);
    // The server is fine: the next request goes through.
    const { events } = await readSse(await fetch(`${server.url}/sessions/s1/messages`, json({ input: 'hello' })));
    expect(events.at(-1)).toMatchObject({ type: 'run.done' });
    expect(lastStepText(events)).toBe('hi');
  });
});

describe('a handler of its own reading an upload the client abandons', () => {
  it('Node adapter: the body stream fails with LOUSHO_BODY_INCOMPLETE (an SDKError with a hint), not a bare Error', async () => {
    const failure = gate<unknown>();
    server = await serve(
      toNodeHandler(async (request) => {
        try {
          await request.text();
        } catch (error) {
          failure.open(error);
        }
        return new Response(null, { status: 400 });
      }),
    );
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n{"input":"hel');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    expect(await failure.promise).toMatchObject({ name: 'SDKError', code: 'LOUSHO_BODY_INCOMPLETE', hint: expect.any(String) });
  });
});

describe('error bodies repeat at most a bounded part of what the client chose', () => {
  const long = 'x'.repeat(10_000);

  it('for ids, paths and content types (Fetch handler and Node adapter)', async () => {
    const { tool } = emailTool();
    const { agent } = agentWith([{ toolCalls: [emailCall('eve@example.com')] }], { tools: [tool] });
    const handler = createAgentHandler(agent);
    server = await serve(handler);
    const call = (path: string, init?: RequestInit) => handler(new Request(`http://agent.test${path}`, init));
    await readSse(await call('/sessions/s1/messages', json({ input: 'mail eve' })));
    const cases: [string, RequestInit | undefined, number, string][] = [
      [`/sessions/${long}`, undefined, 404, 'LOUSHO_SESSION_NOT_FOUND'],
      [`/sessions/${long}/events`, undefined, 404, 'LOUSHO_SESSION_NOT_FOUND'],
      [`/sessions/s1/approvals/${long}`, json({ approved: true }), 404, 'LOUSHO_APPROVAL_NOT_FOUND'],
      [`/${long}`, undefined, 404, 'LOUSHO_ROUTE_NOT_FOUND'],
      ['/sessions/s1/messages', { method: 'POST', headers: { 'content-type': `text/${long}` }, body: '{}' }, 415, 'LOUSHO_UNSUPPORTED_MEDIA_TYPE'],
    ];
    for (const [path, init, status, code] of cases) {
      for (const response of [await call(path, init), await fetch(`${server.url}${path}`, init)]) {
        const text = await response.text();
        expect(response.status).toBe(status);
        expect(JSON.parse(text).error.code).toBe(code);
        expect(text.length).toBeLessThan(400);
        expect(text).toContain('x…');
      }
    }
  });
});
