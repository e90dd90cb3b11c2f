import { afterEach, describe, expect, it } from 'vitest';
import { createAgentHandler, type AgentInput } from '@lousho/core';
import { WebhookTriggerAdapter, type TriggerAgent, type TriggerEvent, type WebhookTriggerOptions } from '../src/index.js';
import { agentReplying, hmacHex, memoryLogger, post } from './helpers.js';

const SECRET = 'whsec_test_3f9a';
const adapters: WebhookTriggerAdapter[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.stop()));
});

async function start(options: WebhookTriggerOptions, agent: TriggerAgent = agentReplying()) {
  const logger = memoryLogger();
  const received: { input: AgentInput; event: TriggerEvent }[] = [];
  const adapter = new WebhookTriggerAdapter({ port: 0, host: '127.0.0.1', logger, ...options });
  adapters.push(adapter);
  await adapter.listen(agent, (input, event) => {
    received.push({ input, event });
    return agent.send(input, { sessionId: event.sessionId });
  });
  const url = `http://127.0.0.1:${adapter.address!.port}/hook`;
  return { adapter, url, logger, received, agent };
}

const body = JSON.stringify({ input: 'Summarise the new issue', issue: 42 });

describe('WebhookTriggerAdapter: HMAC', () => {
  it('accepts a correct signature of the raw body and runs the agent', async () => {
    const { url, received } = await start({ auth: { type: 'hmac', secret: SECRET } });
    const res = await post(url, body, { 'x-signature-256': `sha256=${hmacHex(SECRET, body)}` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ finishReason: 'stop', text: 'done', sessionId: expect.stringMatching(/^webhook-/) });
    expect(received).toHaveLength(1);
    expect(received[0]!.input).toBe('Summarise the new issue');
    expect(received[0]!.event.payload).toEqual({ input: 'Summarise the new issue', issue: 42 });
  });

  it.each([
    ['a wrong signature', (b: string) => ({ 'x-signature-256': `sha256=${hmacHex('other-secret', b)}` }), 'signature does not match'],
    ['a signature of other bytes (re-serialized JSON)', (_b: string) => ({ 'x-signature-256': `sha256=${hmacHex(SECRET, JSON.stringify(JSON.parse(body), null, 2))}` }), 'signature does not match'],
    ['no signature header', () => ({}), 'missing x-signature-256 header'],
    ['a signature without its prefix', (b: string) => ({ 'x-signature-256': hmacHex(SECRET, b) }), 'malformed x-signature-256 header'],
    ['a signature that is not hex', () => ({ 'x-signature-256': 'sha256=zz' }), 'malformed'],
    ['a truncated signature', (b: string) => ({ 'x-signature-256': `sha256=${hmacHex(SECRET, b).slice(0, 40)}` }), 'signature does not match'],
  ])('refuses %s with the generic 401 and logs why', async (_name, headers, reason) => {
    const { url, received, logger } = await start({ auth: { type: 'hmac', secret: SECRET } });
    const res = await post(url, body, headers(body));
    expect(res.status).toBe(401);
    expect(res.text).toBe('{"error":"Unauthorized"}');
    expect(received).toHaveLength(0);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toContain(reason);
    // The log never carries the secret or a signature.
    expect(logger.warnings[0]).not.toContain(SECRET);
    expect(logger.warnings[0]).not.toMatch(/[0-9a-f]{40}/);
  });

  it("with algorithm 'sha1' the default prefix is 'sha1=', as a sha1 sender (GitHub's X-Hub-Signature) writes it", async () => {
    const { url } = await start({ auth: { type: 'hmac', secret: SECRET, algorithm: 'sha1', header: 'X-Hub-Signature' } });
    expect((await post(url, body, { 'x-hub-signature': `sha1=${hmacHex(SECRET, body, 'sha1')}` })).status).toBe(200);
    expect((await post(url, body, { 'x-hub-signature': `sha256=${hmacHex(SECRET, body, 'sha1')}` })).status).toBe(401);
  });

  it('supports sha1, a custom header and a bare digest', async () => {
    const { url } = await start({ auth: { type: 'hmac', secret: SECRET, algorithm: 'sha1', header: 'X-Hub-Signature', prefix: '' } });
    expect((await post(url, body, { 'x-hub-signature': hmacHex(SECRET, body, 'sha1') })).status).toBe(200);
    expect((await post(url, body, { 'x-hub-signature': hmacHex(SECRET, body, 'sha256') })).status).toBe(401);
  });

  describe('with a signed timestamp', () => {
    const auth = { type: 'hmac', secret: SECRET, header: 'x-signature', timestampHeader: 'x-timestamp', toleranceSeconds: 120 } as const;
    const signed = (timestamp: number, payload = body) => ({ 'x-timestamp': String(timestamp), 'x-signature': `sha256=${hmacHex(SECRET, `${timestamp}.${payload}`)}` });
    const now = () => Math.floor(Date.now() / 1000);

    it('accepts a fresh request signed over `${timestamp}.${body}`', async () => {
      const { url } = await start({ auth });
      expect((await post(url, body, signed(now() - 30))).status).toBe(200);
    });

    it('refuses a stale timestamp, and one from the future', async () => {
      const { url, logger } = await start({ auth });
      expect((await post(url, body, signed(now() - 121))).status).toBe(401);
      expect((await post(url, body, signed(now() + 300))).status).toBe(401);
      expect(logger.warnings.every((w) => w.includes('outside the 120 s tolerance'))).toBe(true);
    });

    it('refuses a replay of an accepted request inside the window', async () => {
      const { url, received, logger } = await start({ auth });
      const headers = signed(now());
      expect((await post(url, body, headers)).status).toBe(200);
      const replay = await post(url, body, headers);
      expect(replay.status).toBe(401);
      expect(replay.text).toBe('{"error":"Unauthorized"}');
      expect(received).toHaveLength(1);
      expect(logger.warnings.at(-1)).toContain('replayed request');
    });

    it('the replay cache is bounded: the oldest signatures leave it first', async () => {
      const { url } = await start({ auth, replayCacheSize: 2 });
      const first = signed(now(), JSON.stringify({ input: 'a' }));
      expect((await post(url, JSON.stringify({ input: 'a' }), first)).status).toBe(200);
      expect((await post(url, JSON.stringify({ input: 'b' }), signed(now(), JSON.stringify({ input: 'b' })))).status).toBe(200);
      expect((await post(url, JSON.stringify({ input: 'c' }), signed(now(), JSON.stringify({ input: 'c' })))).status).toBe(200);
      // 'a' was pushed out by 'c' (a cache of 2), so only its timestamp check still guards it.
      expect((await post(url, JSON.stringify({ input: 'a' }), first)).status).toBe(200);
    });

    it('refuses a missing or malformed timestamp', async () => {
      const { url, logger } = await start({ auth });
      const { 'x-signature': signature } = signed(now());
      expect((await post(url, body, { 'x-signature': signature })).status).toBe(401);
      expect((await post(url, body, { 'x-signature': signature, 'x-timestamp': 'yesterday' })).status).toBe(401);
      expect(logger.warnings[0]).toContain('missing x-timestamp header');
      expect(logger.warnings[1]).toContain('malformed x-timestamp header');
    });
  });
});

describe('WebhookTriggerAdapter: bearer and custom', () => {
  it('bearer: accepts the token, refuses another, a missing one, another scheme', async () => {
    const { url, logger } = await start({ auth: { type: 'bearer', token: 'tok_live_123' } });
    expect((await post(url, body, { authorization: 'Bearer tok_live_123' })).status).toBe(200);
    expect((await post(url, body, { authorization: 'Bearer tok_live_124' })).status).toBe(401);
    expect((await post(url, body, { authorization: 'Bearer tok_live_1234567' })).status).toBe(401);
    expect((await post(url, body, {})).status).toBe(401);
    expect((await post(url, body, { authorization: 'Basic dG9rX2xpdmVfMTIz' })).status).toBe(401);
    expect(logger.warnings.map((w) => w.match(/\((.*?)\)/)?.[1])).toEqual(['bearer token does not match', 'bearer token does not match', 'missing bearer token', 'missing bearer token']);
    expect(logger.warnings.join('\n')).not.toContain('tok_live');
  });

  it('custom: verify sees the headers and the exact raw bytes as a Buffer', async () => {
    const seen: { isBuffer: boolean; raw: string }[] = [];
    const { url } = await start({
      auth: {
        type: 'custom',
        verify: (req) => {
          seen.push({ isBuffer: Buffer.isBuffer(req.rawBody), raw: req.rawBody.toString('utf8') });
          return req.headers['x-api-key'] === 'k-1';
        },
      },
    });
    const spaced = '{ "input" :  "hi" }';
    expect((await post(url, spaced, { 'x-api-key': 'k-1' })).status).toBe(200);
    expect((await post(url, spaced, { 'x-api-key': 'k-2' })).status).toBe(401);
    expect(seen[0]).toEqual({ isBuffer: true, raw: spaced });
  });

  it('custom: a verify that throws is a refusal, not a crash', async () => {
    const { url, logger } = await start({
      auth: {
        type: 'custom',
        verify: () => {
          throw new Error('db down with password hunter2');
        },
      },
    });
    const res = await post(url, body);
    expect(res.status).toBe(401);
    expect(logger.warnings[0]).toContain('custom verify threw');
    expect(logger.warnings[0]).not.toContain('hunter2');
  });

  it('refuses empty secrets and tokens when constructed', () => {
    expect(() => new WebhookTriggerAdapter({ auth: { type: 'hmac', secret: '' } })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => new WebhookTriggerAdapter({ auth: { type: 'bearer', token: '' } })).toThrow(/token is empty/);
    expect(() => new WebhookTriggerAdapter({ auth: { type: 'jwt' } as never })).toThrow(/auth.type must be/);
    expect(() => new WebhookTriggerAdapter({ auth: { type: 'hmac', secret: 's', toleranceSeconds: 60 } })).toThrow(/needs auth.timestampHeader/);
  });
});

describe('WebhookTriggerAdapter: requests', () => {
  it('refuses a body over the limit with 413 before authenticating it', async () => {
    const { url, received } = await start({ auth: { type: 'bearer', token: 't' }, maxBodyBytes: 64 });
    const big = JSON.stringify({ input: 'x'.repeat(100) });
    const res = await post(url, big, { authorization: 'Bearer t' });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('LOUSHO_BODY_TOO_LARGE');
    expect(received).toHaveLength(0);
  });

  it('refuses a streamed body that grows past the limit (no content-length)', async () => {
    const { adapter, received } = await start({ auth: { type: 'bearer', token: 't' }, maxBodyBytes: 64 });
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: adapter.address!.port, method: 'POST', path: '/', headers: { authorization: 'Bearer t', 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"input":"');
      req.write('y'.repeat(200));
      req.end('"}');
    });
    expect(status).toBe(413);
    expect(received).toHaveLength(0);
  });

  it('answers bad JSON with 400 (after authentication)', async () => {
    const { url } = await start({ auth: { type: 'bearer', token: 't' } });
    const res = await post(url, '{"input": ', { authorization: 'Bearer t' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'LOUSHO_INVALID_INPUT', message: 'The body is not valid JSON.' });
    expect((await post(url, '{"input": ')).status).toBe(401);
  });

  it('answers GET with 405 and a path outside `path` with 404', async () => {
    const { url } = await start({ auth: { type: 'bearer', token: 't' }, path: '/hook' });
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await post(url.replace('/hook', '/other'), body, { authorization: 'Bearer t' })).status).toBe(404);
  });

  it('a payload without `input` is given to the agent as its JSON text', async () => {
    const { url, received } = await start({ auth: { type: 'bearer', token: 't' } });
    await post(url, JSON.stringify({ action: 'opened', number: 7 }), { authorization: 'Bearer t' });
    expect(received[0]!.input).toBe('{"action":"opened","number":7}');
  });

  it("the run is a session the HTTP handler serves, and it can pause for an approval there", async () => {
    const { createAgent, defineTool } = await import('@lousho/core');
    const { mockModel } = await import('@lousho/core/testing');
    const { z } = await import('zod');
    const deploy = defineTool({ name: 'deploy', description: 'Deploy', input: z.object({ env: z.string() }), needsApproval: true, execute: async ({ env }) => `deployed ${env}` });
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'deploy', args: { env: 'prod' } }] }, 'Deployed.']), tools: [deploy] });
    const { url } = await start({ auth: { type: 'bearer', token: 't' }, sessionId: (p) => `gh-${(p as { pr: number }).pr}` }, agent);
    const res = await post(url, JSON.stringify({ input: 'ship it', pr: 12 }), { authorization: 'Bearer t' });
    expect(res.body).toMatchObject({ sessionId: 'gh-12', finishReason: 'awaiting-approval', pendingApproval: { toolName: 'deploy' } });
    const http = createAgentHandler(agent);
    const session = (await (await http(new Request('http://x/sessions/gh-12'))).json()) as { status: string; pendingApproval: { approvalId: string } };
    expect(session.status).toBe('awaiting-approval');
    const decided = await http(
      new Request(`http://x/sessions/gh-12/approvals/${session.pendingApproval.approvalId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"approved":true}' }),
    );
    expect(await decided.text()).toContain('"finishReason":"stop"');
  });

  it("respond: 'accepted' answers 202 at once and runs in the background", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const agent = agentReplying();
    const adapter = new WebhookTriggerAdapter({ port: 0, host: '127.0.0.1', auth: { type: 'bearer', token: 't' }, respond: 'accepted' });
    adapters.push(adapter);
    const done: string[] = [];
    await adapter.listen(agent, async (input, event) => {
      await gate;
      done.push(event.sessionId);
      return agent.send(input, { sessionId: event.sessionId });
    });
    const res = await post(`http://127.0.0.1:${adapter.address!.port}/`, body, { authorization: 'Bearer t' });
    expect(res.status).toBe(202);
    expect(done).toEqual([]);
    release();
    await adapter.stop();
    expect(done).toEqual([res.body.sessionId]);
  });
});

describe('WebhookTriggerAdapter: listening', () => {
  it('warns once when listening on a non-loopback host without auth; never with auth or on loopback', async () => {
    const open = memoryLogger();
    const adapter = new WebhookTriggerAdapter({ port: 0, host: '0.0.0.0', logger: open });
    adapters.push(adapter);
    await adapter.listen(agentReplying());
    await adapter.stop();
    await adapter.listen(agentReplying());
    expect(open.warnings).toHaveLength(1);
    expect(open.warnings[0]).toMatch(/without auth: anyone who can reach this port can run your agent/);

    for (const options of [{ host: '127.0.0.1' }, { host: '0.0.0.0', auth: { type: 'bearer', token: 't' } as const }]) {
      const logger = memoryLogger();
      const quiet = new WebhookTriggerAdapter({ port: 0, logger, ...options });
      adapters.push(quiet);
      await quiet.listen(agentReplying());
      expect(logger.warnings).toEqual([]);
    }
  });

  it('stop() frees the port', async () => {
    const { adapter } = await start({ auth: { type: 'bearer', token: 't' } });
    const port = adapter.address!.port;
    await adapter.stop();
    const again = new WebhookTriggerAdapter({ port, host: '127.0.0.1', auth: { type: 'bearer', token: 't' } });
    adapters.push(again);
    await again.listen(agentReplying());
    expect(again.address?.port).toBe(port);
  });

  it('listen() rejects when the port is taken', async () => {
    const { adapter } = await start({ auth: { type: 'bearer', token: 't' } });
    const clash = new WebhookTriggerAdapter({ port: adapter.address!.port, host: '127.0.0.1', auth: { type: 'bearer', token: 't' } });
    await expect(clash.listen(agentReplying())).rejects.toThrow(/EADDRINUSE/);
  });
});
