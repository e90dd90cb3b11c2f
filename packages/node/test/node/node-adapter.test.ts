import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeListener, toNodeHandler } from '../../src/node/index.js';
import { createAgentHandler } from '@lousho/core';
import { agentWith, coveredSeqs, gate, json, lastStepText, readSse, serve, slowTool, type TestServer } from '../../../core/test/http/helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('toNodeHandler', () => {
  it('streams events as they happen, not when the response ends', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = agentWith([{ toolCalls: [{ name: 'slow', id: 'c1' }] }, 'done'], { tools: [tool] });
    server = await serve(createNodeListener(agent));
    const response = await fetch(`${server.url}/sessions/s1/messages`, json({ input: 'go' }));
    // The tool is still blocked, yet its call already arrived.
    const early = await readSse(response, (_raw, events) => events.some((e) => e.type === 'tool.call'));
    await started.promise;
    expect(early.events.at(-1)).toMatchObject({ type: 'tool.call', toolName: 'slow' });
    expect(agent.sessions.get('s1')!.status).toBe('running');
    release.open();
    await vi.waitFor(() => expect(agent.sessions.get('s1')!.status).toBe('idle'));
  });

  it('aborts request.signal and cancels the body when the client goes away', async () => {
    const aborted = gate<unknown>();
    const cancelled = gate<unknown>();
    server = await serve(
      toNodeHandler((request) => {
        request.signal.addEventListener('abort', () => aborted.open(request.signal.reason));
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('first chunk'));
          },
          cancel(reason) {
            cancelled.open(reason);
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/plain' } });
      }),
    );
    const controller = new AbortController();
    const response = await fetch(server.url, { signal: controller.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first chunk');
    controller.abort();
    expect(await aborted.promise).toMatchObject({ name: 'AbortError' });
    await cancelled.promise;
  });

  it('honours backpressure: a client that does not read stops the producer', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(97);
    const total = 2000; // 128 MiB if everything were produced
    let produced = 0;
    server = await serve(
      toNodeHandler(
        () =>
          new Response(
            new ReadableStream<Uint8Array>({
              pull(controller) {
                if (produced === total) controller.close();
                else {
                  produced++;
                  controller.enqueue(chunk);
                }
              },
            }),
          ),
      ),
    );
    const response = await fetch(server.url);
    const reader = response.body!.getReader();
    await reader.read();
    // Without reading further, production settles far below the total.
    let last = -1;
    await vi.waitFor(
      async () => {
        const now = produced;
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(produced).toBe(now);
        last = now;
      },
      { timeout: 10_000, interval: 10 },
    );
    expect(last).toBeLessThan(total / 4);
    // Reading on drains everything.
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
    }
    expect(produced).toBe(total);
    expect(bytes).toBeGreaterThan(0);
    // 128 MiB through a local socket: a few seconds on a busy shared machine.
  }, 30_000);

  it('streams an event stream a handler wrapped in a Response of its own (through its web stream), event for event as unwrapped', async () => {
    const turn = async (wrap: boolean) => {
      const { agent } = agentWith(['Hello there, this is a reply in a few deltas.']);
      const handler = createAgentHandler(agent);
      // Middleware that adds a header the usual way: a new Response around the handler's body.
      const listener = toNodeHandler(async (request) => {
        const response = await handler(request);
        if (!wrap) return response;
        const headers = new Headers(response.headers);
        headers.set('x-wrapped', '1');
        return new Response(response.body, { status: response.status, headers });
      });
      server = await serve(listener);
      const response = await fetch(`${server.url}/sessions/s1/messages`, json({ input: 'go' }));
      const { events } = await readSse(response);
      await server.close();
      server = undefined;
      return { header: response.headers.get('x-wrapped'), events, seqs: coveredSeqs(events), text: lastStepText(events) };
    };
    const plainTurn = await turn(false);
    const wrapped = await turn(true);
    expect(wrapped.header).toBe('1');
    expect(plainTurn.events.at(-1)).toMatchObject({ type: 'run.done' });
    expect(wrapped.text).toBe('Hello there, this is a reply in a few deltas.');
    expect(wrapped.text).toBe(plainTurn.text);
    expect(wrapped.seqs).toEqual(plainTurn.seqs);
    expect(wrapped.seqs).toEqual(Array.from({ length: wrapped.seqs.length }, (_, i) => i + 1));
  });

  it('passes on a body an Express-style parser already read, and repeated set-cookie headers', async () => {
    const seen: unknown[] = [];
    const listener = toNodeHandler(async (request) => {
      seen.push(await request.json());
      const headers = new Headers({ 'content-type': 'application/json' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return new Response('{"ok":true}', { status: 202, headers });
    });
    // What express.json() does: consume the stream, set req.body and req._body.
    const bodyParser = (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        Object.assign(req, { body: JSON.parse(Buffer.concat(chunks).toString('utf8')), _body: true });
        listener(req, res);
      });
    };
    server = await serve(bodyParser);
    const response = await fetch(server.url, json({ input: 'parsed already' }));
    expect(response.status).toBe(202);
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(seen).toEqual([{ input: 'parsed already' }]);
  });

  it('answers 500 JSON when the handler throws', async () => {
    const onError = vi.fn();
    server = await serve(
      toNodeHandler(() => {
        throw new Error('boom at /secret');
      }, { onError }),
    );
    const response = await fetch(server.url);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'LOUSHO_INTERNAL' } });
    expect(text).not.toContain('secret');
    expect(onError).toHaveBeenCalledOnce();
  });
});
