import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgentHandler } from '@lousho/core';
import { createNodeListener, toNodeHandler, type NodeHandlerOptions } from '../../src/node/index.js';
import { negotiateEncoding } from '../../src/node/compression.js';
import { agentWith, json, plain, readSse, reduceAll, serve, slowTool, type TestServer } from '../../../core/test/http/helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const script = () => [{ text: 'Hello there, this is a reply long enough to be worth compressing. '.repeat(4) }];

/** The events without what differs from one session or run to the next. */
const comparable = (events: readonly object[]): unknown => (plain(events) as Record<string, unknown>[]).map(({ runId: _r, sessionId: _s, ...rest }) => rest);
/** The stream's text with its run and session ids replaced by placeholders. */
const anonymous = (raw: string): string => raw.replace(/run_[0-9a-zA-Z]+/g, 'RUN').replace(/"sessionId":"s\d"/g, '"sessionId":"S"');

/** A request with exactly these headers (fetch adds its own Accept-Encoding), read whole as raw bytes. */
function rawRequest(url: string, body: string, headers: Record<string, string>): Promise<{ headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('compression (toNodeHandler / createNodeListener `compression: true`)', () => {
  it.each(['gzip', 'br'] as const)('a %s stream decodes, over real HTTP, to the events of an uncompressed one', async (encoding) => {
    const { agent } = agentWith([...script(), ...script()]);
    server = await serve(createNodeListener(agent, { compression: true }));
    const compressed = await fetch(`${server.url}/sessions/s1/messages`, { ...json({ input: 'hi' }), headers: { 'content-type': 'application/json', 'accept-encoding': encoding } });
    expect(compressed.headers.get('content-encoding')).toBe(encoding);
    expect(compressed.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(compressed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const zipped = await readSse(compressed);
    const uncompressed = await fetch(`${server.url}/sessions/s2/messages`, { ...json({ input: 'hi' }), headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' } });
    expect(uncompressed.headers.get('content-encoding')).toBeNull();
    const clear = await readSse(uncompressed);
    expect(zipped.events.at(-1)?.type).toBe('run.done');
    expect(comparable(zipped.events)).toEqual(comparable(clear.events));
    expect(anonymous(zipped.raw)).toBe(anonymous(clear.raw));
  });

  it('flushes every write: an event reaches the client while the run is still blocked', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = agentWith([{ toolCalls: [{ name: 'slow', id: 'c1' }] }, 'done'], { tools: [tool] });
    server = await serve(createNodeListener(agent, { compression: true }));
    const response = await fetch(`${server.url}/sessions/s1/messages`, { ...json({ input: 'go' }), headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const early = await readSse(response, (_raw, events) => events.some((e) => e.type === 'tool.call'));
    await started.promise;
    expect(early.events.at(-1)).toMatchObject({ type: 'tool.call', toolName: 'slow' });
    expect(agent.sessions.get('s1')!.status).toBe('running');
    release.open();
    await vi.waitFor(() => expect(agent.sessions.get('s1')!.status).toBe('idle'));
  });

  it('resumes with Last-Event-ID compressed, to the same state as the whole stream', async () => {
    const { agent } = agentWith(script());
    server = await serve(createNodeListener(agent, { compression: true }));
    const whole = await readSse(await fetch(`${server.url}/sessions/s1/messages`, json({ input: 'hi' })));
    const cut = 3;
    const resumed = await fetch(`${server.url}/sessions/s1/events`, { headers: { 'last-event-id': String(cut), 'accept-encoding': 'br' } });
    expect(resumed.headers.get('content-encoding')).toBe('br');
    const rest = await readSse(resumed);
    expect(rest.events[0]!.seq).toBeGreaterThan(cut);
    const head = whole.events.filter((event) => event.seq <= cut);
    expect(plain(reduceAll([...head, ...rest.events]))).toEqual(plain(reduceAll(whole.events)));
  });

  it('answers a client that does not ask for compression in plain text (and says the answer varies)', async () => {
    const { agent } = agentWith(script());
    server = await serve(createNodeListener(agent, { compression: true }));
    const { headers, text } = await rawRequest(`${server.url}/sessions/s1/messages`, JSON.stringify({ input: 'hi' }), {});
    expect(headers['content-encoding']).toBeUndefined();
    expect(headers.vary).toMatch(/accept-encoding/i);
    expect(text.startsWith('event: protocol\ndata: {"version":"lousho.v2"}\n\n')).toBe(true);
    expect(text).toContain('"type":"run.done"');
  });

  it('compresses nothing unless asked to (the default), whatever the client accepts', async () => {
    const { agent } = agentWith(script());
    server = await serve(createNodeListener(agent));
    const { headers, text } = await rawRequest(`${server.url}/sessions/s1/messages`, JSON.stringify({ input: 'hi' }), { 'accept-encoding': 'br, gzip' });
    expect(headers['content-encoding']).toBeUndefined();
    expect(headers.vary).toBeUndefined();
    expect(text).toContain('"type":"run.done"');
  });

  it('compresses JSON answers too (GET /sessions/:id), and leaves a body the handler encoded alone', async () => {
    const { agent } = agentWith(script());
    server = await serve(createNodeListener(agent, { compression: true }));
    await readSse(await fetch(`${server.url}/sessions/s1/messages`, json({ input: 'hi' })));
    const session = await fetch(`${server.url}/sessions/s1`, { headers: { 'accept-encoding': 'gzip' } });
    expect(session.headers.get('content-encoding')).toBe('gzip');
    expect(((await session.json()) as { state: { messages: unknown[] } }).state.messages).toHaveLength(2);

    const encoded = await serve(
      toNodeHandler(() => new Response('already', { headers: { 'content-type': 'application/json', 'content-encoding': 'identity' } }), { compression: true }),
    );
    try {
      const response = await fetch(encoded.url, { headers: { 'accept-encoding': 'gzip' } });
      expect(response.headers.get('content-encoding')).toBe('identity');
      expect(await response.text()).toBe('already');
    } finally {
      await encoded.close();
    }
  });

  it('refuses an option neither the adapter nor the handler has', () => {
    const { agent } = agentWith(script());
    expect(() => toNodeHandler(createAgentHandler(agent), { compresion: true } as NodeHandlerOptions)).toThrow(
      expect.objectContaining({ code: 'LOUSHO_UNKNOWN_OPTION', message: expect.stringContaining('did you mean `compression`') }),
    );
    expect(() => createNodeListener(agent, { gzip: true } as NodeHandlerOptions)).toThrow(expect.objectContaining({ code: 'LOUSHO_UNKNOWN_OPTION' }));
    expect(() => createNodeListener(agent, { compression: true, basePath: '/api' })).not.toThrow();
  });

  it('refuses a compression option it does not know, with LOUSHO_INVALID_CONFIG', () => {
    const { agent } = agentWith(script());
    expect(() => createNodeListener(agent, { compression: 'gzip' as unknown as boolean })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });
});

describe('negotiateEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['*;q=0.2, br;q=0', 'gzip'],
    ['GZIP; Q=1.0', 'gzip'],
    ['gzip;q=2', undefined],
  ])('%j → %j', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});
