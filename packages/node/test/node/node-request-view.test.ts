import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgentHandler } from '@lousho/core';
import { NodeRequestView } from '../../src/node/node-request-view.js';
import { createNodeListener, toNodeHandler } from '../../src/node/index.js';
import { agentWith, errorOf, gate, json, lastStepText, readSse, serve, type TestServer } from '../../../core/test/http/helpers.js';

// `toNodeHandler(createAgentHandler(...))` reads requests through `NodeRequestView`, without a
// Fetch `Request` unless a hook asks for one: these are the cases where the two could differ.

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Writes `head` and `body` on a raw socket, waits `ms`, and returns the socket. */
async function rawSocket(url: string, head: string, body = '') {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (answer += chunk));
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head + body);
  return { socket, answer: () => answer };
}

describe('the node adapter in front of createAgentHandler', () => {
  it('gives `authorize` a Fetch Request with the headers and a body the handler still reads', async () => {
    const seen: Request[] = [];
    const { agent } = agentWith(['hi']);
    server = await serve(
      createNodeListener(agent, {
        authorize: (request) => {
          seen.push(request);
          return request.headers.get('x-user');
        },
      }),
    );
    const { events } = await readSse(await fetch(`${server.url}/sessions/s1/messages`, json({ input: 'hello' }, { 'x-user': 'ada' })));
    expect(lastStepText(events)).toBe('hi');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(Request);
    expect(seen[0]!.method).toBe('POST');
    expect(new URL(seen[0]!.url).pathname).toBe('/sessions/s1/messages');
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
    // The session is ada's: another principal does not see it.
    expect((await fetch(`${server.url}/sessions/s1`, { headers: { 'x-user': 'bob' } })).status).toBe(404);
    expect((await fetch(`${server.url}/sessions/s1`, { headers: { 'x-user': 'ada' } })).status).toBe(200);
  });

  it('gives `onError` a Fetch Request for an unexpected failure, answered 500 without details', async () => {
    const onError = vi.fn();
    const { agent } = agentWith(['hi']);
    agent.sessions.load = () => {
      throw new Error('disk on fire');
    };
    server = await serve(createNodeListener(agent, { onError }));
    const response = await fetch(`${server.url}/sessions/s1/messages`, json({ input: 'hello' }));
    expect(await errorOf(response)).toMatchObject({ status: 500, code: 'LOUSHO_INTERNAL' });
    expect(onError).toHaveBeenCalledTimes(1);
    const [error, request] = onError.mock.calls[0]!;
    expect(error).toMatchObject({ message: 'disk on fire' });
    expect(request).toBeInstanceOf(Request);
    expect(new URL(request.url).pathname).toBe('/sessions/s1/messages');
  });

  it('answers 413 for a chunked body that grows past maxBodyBytes, starts nothing, and goes on serving', async () => {
    const { agent, provider } = agentWith(['hi', 'hi']);
    server = await serve(toNodeHandler(createAgentHandler(agent, { maxBodyBytes: 64 })));
    const chunk = `${(80).toString(16)}\r\n{"input":"${'x'.repeat(69)}"}\r\n`;
    const { socket, answer } = await rawSocket(
      server.url,
      'POST /sessions/s1/messages HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
      `${chunk}0\r\n\r\n`,
    );
    await new Promise((resolve) => socket.once('close', resolve));
    expect(answer()).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer()).toContain('LOUSHO_BODY_TOO_LARGE');
    expect(provider.calls).toHaveLength(0);
    const { events } = await readSse(await fetch(`${server.url}/sessions/s1/messages`, json({ input: 'hello' })));
    expect(lastStepText(events)).toBe('hi');
  });

  it('answers nobody and reports nothing when the client goes away mid-body', async () => {
    const onError = vi.fn();
    const { agent, provider } = agentWith(['hi']);
    server = await serve(createNodeListener(agent, { onError }));
    const { socket } = await rawSocket(
      server.url,
      'POST /sessions/s1/messages HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      '{"input":"hel',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(onError).not.toHaveBeenCalled();
    expect(provider.calls).toHaveLength(0);
    const { events } = await readSse(await fetch(`${server.url}/sessions/s1/messages`, json({ input: 'hello' })));
    expect(lastStepText(events)).toBe('hi');
  });

  it('takes a body an Express-style parser already read', async () => {
    const { agent } = agentWith(['hi']);
    const listener = createNodeListener(agent);
    const parsed = gate<void>();
    server = await serve((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (text += chunk));
      req.on('end', () => {
        Object.assign(req, { body: JSON.parse(text), _body: true });
        parsed.open();
        listener(req, res);
      });
    });
    const { events } = await readSse(await fetch(`${server.url}/sessions/s1/messages`, json({ input: 'hello' })));
    await parsed.promise;
    expect(events[0]).toMatchObject({ type: 'run.start' });
    expect(lastStepText(events)).toBe('hi');
  });
});

describe('NodeRequestView.header', () => {
  const name = fc.constantFrom('Content-Type', 'content-type', 'X-A', 'x-a', 'Last-Event-ID', 'Cookie', 'Accept');
  const value = fc.stringMatching(/^[!-~]([ -~]{0,10}[!-~])?$/);

  it('answers what Headers.get answers for the same raw headers (repeats joined as it joins them)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 8 }), name, (pairs, asked) => {
        const rawHeaders = pairs.flat();
        const view = new NodeRequestView({ rawHeaders, method: 'GET' } as unknown as IncomingMessage, new URL('http://h/x'), new AbortController().signal);
        const headers = new Headers();
        for (const [key, text] of pairs) headers.append(key, text);
        expect(view.header(asked)).toBe(headers.get(asked));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves out HTTP/2 pseudo-headers', () => {
    const view = new NodeRequestView({ rawHeaders: [':path', '/x', 'accept', 'text/event-stream'], method: 'GET' } as unknown as IncomingMessage, new URL('http://h/x'), new AbortController().signal);
    expect(view.header(':path')).toBeNull();
    expect(view.header('Accept')).toBe('text/event-stream');
  });
});
