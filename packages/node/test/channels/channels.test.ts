import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAgent, createAgentHandler, defineTool } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { createWebhookAuthenticator, defineChannel, httpChannel, mountChannels, webhookChannel, type ChannelOutbound } from '../../src/index.js';

const json = (body: unknown, headers: Record<string, string> = {}) => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

const deploy = defineTool({ name: 'deploy', description: 'Deploy', input: z.object({ env: z.string() }), needsApproval: true, execute: async ({ env }) => `deployed ${env}` });

describe('httpChannel', () => {
  it('a turn answers with the reply; the conversation continues in the same session', async () => {
    const agent = createAgent({ provider: mockModel(['Hi there.', 'Still here.']) });
    const handle = mountChannels(agent, [httpChannel()], { basePath: '/channels' });
    const first = await handle(new Request('http://x/channels/http', json({ conversationId: 'c-1', input: 'hello' })));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ type: 'reply', conversationId: 'c-1', sessionId: 'http:c-1', text: 'Hi there.', finishReason: 'stop' });
    const second = await (await handle(new Request('http://x/channels/http', json({ conversationId: 'c-1', input: 'still?' })))).json();
    expect(second.text).toBe('Still here.');
    expect(agent.sessions.get('http:c-1')?.messages).toHaveLength(4);
  });

  it('an approval comes back as the outcome, and is decided on the same surface', async () => {
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'deploy', args: { env: 'prod' } }] }, 'Done.']), tools: [deploy] });
    const handle = mountChannels(agent, [httpChannel()]);
    const paused = (await (await handle(new Request('http://x/http', json({ conversationId: 'ops', input: 'ship' })))).json()) as { type: string; approval: { approvalId: string; toolName: string } };
    expect(paused).toMatchObject({ type: 'approval', approval: { toolName: 'deploy', kind: 'tool' } });
    // The session is visible over HTTP to the (default) anonymous principal.
    const read = (await (await createAgentHandler(agent)(new Request('http://x/sessions/http:ops'))).json()) as { status: string };
    expect(read.status).toBe('awaiting-approval');
    // A message while the decision is pending asks again instead of failing.
    const again = await (await handle(new Request('http://x/http', json({ conversationId: 'ops', input: 'hello?' })))).json();
    expect(again).toMatchObject({ type: 'approval', approval: { approvalId: paused.approval.approvalId } });
    // Another conversation cannot decide it.
    const foreign = await handle(new Request('http://x/http', json({ conversationId: 'other', approvalId: paused.approval.approvalId, approved: true })));
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error.code).toBe('LOUSHO_APPROVAL_NOT_FOUND');
    const done = await (await handle(new Request('http://x/http', json({ conversationId: 'ops', approvalId: paused.approval.approvalId, approved: true })))).json();
    expect(done).toMatchObject({ type: 'reply', text: 'Done.' });
  });

  it('refuses bad requests with a code and runs nothing', async () => {
    const provider = mockModel(['x']);
    const agent = createAgent({ provider });
    const handle = mountChannels(agent, [httpChannel({ authorize: (request) => request.headers.get('x-key') === 'k' })]);
    const send = (init: RequestInit, path = '/http') => handle(new Request(`http://x${path}`, init));
    const cases: [RequestInit, number, string][] = [
      [{ method: 'GET' }, 405, 'LOUSHO_METHOD_NOT_ALLOWED'],
      [{ method: 'POST', body: 'hi', headers: { 'content-type': 'text/plain', 'x-key': 'k' } }, 415, 'LOUSHO_UNSUPPORTED_MEDIA_TYPE'],
      [json({ input: 'hi' }), 401, 'LOUSHO_UNAUTHORIZED'],
      [{ method: 'POST', body: '{', headers: { 'content-type': 'application/json', 'x-key': 'k' } }, 400, 'LOUSHO_INVALID_INPUT'],
      [json({ input: '' }, { 'x-key': 'k' }), 400, 'LOUSHO_INVALID_INPUT'],
      [json({ conversationId: 'a b', input: 'hi' }, { 'x-key': 'k' }), 400, 'LOUSHO_INVALID_INPUT'],
      [json({ approvalId: 'x', approved: true }, { 'x-key': 'k' }), 400, 'LOUSHO_INVALID_INPUT'],
    ];
    for (const [init, status, code] of cases) {
      const response = await send(init);
      expect([response.status, (await response.json()).error.code]).toEqual([status, code]);
    }
    const missing = await send(json({ input: 'hi' }, { 'x-key': 'k' }), '/nowhere');
    expect(missing.status).toBe(404);
    expect(provider.calls).toHaveLength(0);
  });

  it('a body over maxBodyBytes gets 413', async () => {
    const agent = createAgent({ provider: mockModel(['x']) });
    const handle = mountChannels(agent, [httpChannel()], { maxBodyBytes: 32 });
    const response = await handle(new Request('http://x/http', json({ input: 'y'.repeat(100) })));
    expect(response.status).toBe(413);
  });

  it('owner makes the sessions visible to that principal only', async () => {
    const agent = createAgent({ provider: mockModel(['x']) });
    const handle = mountChannels(agent, [httpChannel()], { owner: 'ops-team' });
    await handle(new Request('http://x/http', json({ conversationId: 'c', input: 'hi' })));
    const as = (principal: string) => createAgentHandler(agent, { authorize: () => principal })(new Request('http://x/sessions/http:c'));
    expect((await as('ops-team')).status).toBe(200);
    expect((await as('mallory')).status).toBe(404);
  });
});

describe('webhookChannel', () => {
  const secret = 'whsec_1';
  const sign = async (body: string) => {
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const digest = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body)));
    return `sha256=${[...digest].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  };

  it('authenticates the raw body, then runs the payload in its conversation', async () => {
    const warn = vi.fn();
    const agent = createAgent({ provider: mockModel(['Triaged.']) });
    const handle = mountChannels(agent, [webhookChannel({ auth: { type: 'hmac', secret }, conversationId: (p) => `issue-${(p as { issue: number }).issue}`, logger: { warn } })]);
    const body = JSON.stringify({ input: 'Triage it', issue: 9 });
    const ok = await handle(new Request('http://x/webhook', { method: 'POST', body, headers: { 'x-signature-256': await sign(body) } }));
    expect(await ok.json()).toMatchObject({ type: 'reply', sessionId: 'webhook:issue-9', text: 'Triaged.' });
    const bad = await handle(new Request('http://x/webhook', { method: 'POST', body, headers: { 'x-signature-256': await sign(`${body} `) } }));
    expect(bad.status).toBe(401);
    expect(await bad.text()).toBe('{"error":"Unauthorized"}');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('signature does not match'), expect.any(Object));
  });

  it('with deliver, acknowledges with 202 and delivers the outcome afterwards', async () => {
    const delivered: ChannelOutbound[] = [];
    const agent = createAgent({ provider: mockModel(['Later.']) });
    const handle = mountChannels(agent, [webhookChannel({ auth: { type: 'bearer', token: 't' }, deliver: (outbound) => void delivered.push(outbound) })]);
    const waitUntil = vi.fn();
    const response = await handle(new Request('http://x/webhook', { method: 'POST', body: '{"input":"go","conversationId":"q1"}', headers: { authorization: 'Bearer t' } }), { waitUntil });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: true, conversationId: 'q1' });
    expect(waitUntil).toHaveBeenCalledTimes(1);
    await handle.idle();
    expect(delivered).toMatchObject([{ type: 'reply', text: 'Later.', conversationId: 'q1', sessionId: 'webhook:q1' }]);
  });
});

describe('mountChannels: maxConcurrentRuns', () => {
  /** A model whose replies wait for `open()`; `started` counts the runs that reached it. */
  function gatedModel(runs: number) {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const counter = { started: 0 };
    const step = async () => {
      counter.started++;
      await gate;
      return 'Done.';
    };
    return { provider: mockModel(Array.from({ length: runs }, () => step)), counter, open };
  }
  const post = (conversationId: string) =>
    new Request('http://x/webhook', { method: 'POST', body: JSON.stringify({ input: 'go', conversationId }), headers: { authorization: 'Bearer t' } });

  it('a burst of authenticated requests past the bound gets 429 with Retry-After and LOUSHO_TRIGGER_BUSY; nothing starts past it', async () => {
    const { provider, counter, open } = gatedModel(10);
    const agent = createAgent({ provider });
    const handle = mountChannels(agent, [webhookChannel({ auth: { type: 'bearer', token: 't' } })], { maxConcurrentRuns: 3, retryAfterSeconds: 7 });
    const answers = Array.from({ length: 8 }, (_, i) => handle(post(`c${i}`)));
    await vi.waitFor(() => expect(counter.started).toBe(3));
    // The five past the bound are answered at once, while the three run.
    const refused = await Promise.all(answers.slice(3));
    for (const response of refused) {
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('7');
      expect(await response.json()).toEqual({ error: { code: 'LOUSHO_TRIGGER_BUSY', message: 'The webhook channel is running 3 runs (maxConcurrentRuns); try again in 7 s.' } });
    }
    expect(counter.started).toBe(3);
    expect(agent.sessions.get('webhook:c5')).toBeUndefined();
    open();
    for (const response of await Promise.all(answers.slice(0, 3))) expect(response.status).toBe(200);
    // Their places are free again.
    expect((await handle(post('later'))).status).toBe(200);
  });

  it('an acknowledged run (deliver) holds its place until its reply is delivered', async () => {
    const { provider, counter, open } = gatedModel(3);
    const delivered: ChannelOutbound[] = [];
    const handle = mountChannels(createAgent({ provider }), [webhookChannel({ auth: { type: 'bearer', token: 't' }, deliver: (outbound) => void delivered.push(outbound) })], { maxConcurrentRuns: 1 });
    expect((await handle(post('a'))).status).toBe(202);
    const busy = await handle(post('b'));
    expect([busy.status, busy.headers.get('retry-after')]).toEqual([429, '5']);
    await vi.waitFor(() => expect(counter.started).toBe(1));
    open();
    await handle.idle();
    expect(delivered).toHaveLength(1);
    expect((await handle(post('c'))).status).toBe(202);
    await handle.idle();
  });

  it('a request refused by its channel (bad token) frees its place at once; the default bound is 16; a bad bound is a config error', async () => {
    const { provider, counter, open } = gatedModel(17);
    const handle = mountChannels(createAgent({ provider }), [webhookChannel({ auth: { type: 'bearer', token: 't' } })], { maxConcurrentRuns: 1 });
    const unauthorized = () => new Request('http://x/webhook', { method: 'POST', body: '{"input":"go"}', headers: { authorization: 'Bearer nope' } });
    expect((await handle(unauthorized())).status).toBe(401);
    expect((await handle(unauthorized())).status).toBe(401);
    expect(counter.started).toBe(0);
    open();
    expect((await handle(post('ok'))).status).toBe(200);
    const gated = gatedModel(17);
    const defaults = mountChannels(createAgent({ provider: gated.provider }), [webhookChannel({ auth: { type: 'bearer', token: 't' } })]);
    const burst = Array.from({ length: 17 }, (_, i) => defaults(post(`d${i}`)));
    expect((await burst[16]!).status).toBe(429);
    await vi.waitFor(() => expect(gated.counter.started).toBe(16));
    gated.open();
    for (const response of await Promise.all(burst.slice(0, 16))) expect(response.status).toBe(200);
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => mountChannels(createAgent({ provider }), [httpChannel()], { maxConcurrentRuns: bad })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    }
    expect(() => mountChannels(createAgent({ provider }), [httpChannel()], { retryAfterSeconds: 0 })).toThrow(/retryAfterSeconds must be a positive integer/);
  });
});

describe('createWebhookAuthenticator', () => {
  it('replays are refused only within the window, and the window is enforced', async () => {
    vi.useFakeTimers({ now: 1_800_000_000_000, toFake: ['Date'] });
    try {
      const check = createWebhookAuthenticator({ type: 'hmac', secret: 's', timestampHeader: 'x-ts', toleranceSeconds: 60 });
      const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('s'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      const body = new TextEncoder().encode('{}');
      const ts = String(Math.floor(Date.now() / 1000));
      const digest = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${ts}.{}`)));
      const headers = { 'x-ts': ts, 'x-signature-256': `sha256=${[...digest].map((b) => b.toString(16).padStart(2, '0')).join('')}` };
      const req = { method: 'POST', url: '/', headers, rawBody: body };
      expect(await check(req)).toEqual({ ok: true });
      expect(await check(req)).toEqual({ ok: false, reason: 'replayed request (this signature was already accepted)' });
      vi.setSystemTime(Date.now() + 61_000);
      expect((await check(req)) as { reason: string }).toMatchObject({ ok: false, reason: expect.stringContaining('outside the 60 s tolerance') });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('defineChannel and mountChannels', () => {
  it('a custom channel maps conversations to sessions and delivers replies, approvals and errors', async () => {
    const sent: ChannelOutbound[] = [];
    const chat = defineChannel({
      name: 'chat',
      async receive({ rawBody }) {
        const { room, text } = JSON.parse(new TextDecoder().decode(rawBody)) as { room: string; text: string };
        return { inbound: { type: 'message', conversationId: room, input: text, context: { room } }, respond: new Response('ok') };
      },
      deliver: (outbound) => void sent.push(outbound),
    });
    const agent = createAgent({ provider: mockModel(['Hello, room.', new Error('model down')]) });
    const handle = mountChannels(agent, [chat]);
    await handle(new Request('http://x/chat', { method: 'POST', body: JSON.stringify({ room: 'lobby/#1 ü', text: 'hi' }) }));
    await handle(new Request('http://x/chat', { method: 'POST', body: JSON.stringify({ room: 'lobby/#1 ü', text: 'again' }) }));
    await handle.idle();
    expect(sent[0]).toMatchObject({ type: 'reply', text: 'Hello, room.', context: { room: 'lobby/#1 ü' }, sessionId: 'chat:lobby_2f_231_20_c3_bc' });
    expect(sent[1]).toMatchObject({ type: 'error', error: { code: expect.stringMatching(/^LOUSHO_/) } });
    expect(JSON.stringify(sent[1])).not.toMatch(/\n\s+at /);
    // The escaped id is one the HTTP handler accepts.
    expect((await createAgentHandler(agent)(new Request(`http://x/sessions/${sent[0]!.sessionId}`))).status).toBe(200);
  });

  it('refuses bad definitions with LOUSHO_INVALID_CONFIG', () => {
    expect(() => defineChannel({ name: 'has space', receive: () => ({ respond: new Response() }) })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => defineChannel({ name: 'x' } as never)).toThrow(/receive/);
    const agent = createAgent({ provider: mockModel(['x']) });
    expect(() => mountChannels(agent, [httpChannel(), httpChannel()])).toThrow(/Two channels are mounted at '\/http'/);
    expect(() => mountChannels(agent, [{ name: 'raw' } as never])).toThrow(/defineChannel/);
  });

  it('a throwing receive is a 500 without details, reported to onError', async () => {
    const onError = vi.fn();
    const broken = defineChannel({
      name: 'broken',
      receive() {
        throw new Error('secret detail');
      },
    });
    const handle = mountChannels(createAgent({ provider: mockModel(['x']) }), [broken], { onError });
    const response = await handle(new Request('http://x/broken', { method: 'POST', body: '{}' }));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('secret detail');
    expect(onError).toHaveBeenCalledWith(expect.any(Error), { channel: 'broken' });
  });
});
