import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAgent, createAgentHandler, defineTool } from '@lousho/core';
import { mountChannels } from '@lousho/node';
import { mockModel } from '@lousho/core/testing';
import { SlackTriggerAdapter, slackChannel, verifySlackSignature, type TriggerEvent } from '../src/index.js';
import { FakeSlack } from './fake-slack.js';
import { agentReplying, memoryLogger } from './helpers.js';

// Slack's published example ("Verifying requests from Slack").
const VECTOR = {
  signingSecret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: '1531420618',
  rawBody:
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};

describe('verifySlackSignature', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Number(VECTOR.timestamp) * 1000 + 10_000, toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("accepts Slack's published example", () => {
    expect(verifySlackSignature(VECTOR)).toBe(true);
    expect(verifySlackSignature({ ...VECTOR, rawBody: Buffer.from(VECTOR.rawBody) })).toBe(true);
  });

  it('refuses it when anything differs', () => {
    expect(verifySlackSignature({ ...VECTOR, rawBody: VECTOR.rawBody.replace('roadrunner', 'coyote') })).toBe(false);
    expect(verifySlackSignature({ ...VECTOR, signingSecret: VECTOR.signingSecret.replace('8f', '9f') })).toBe(false);
    expect(verifySlackSignature({ ...VECTOR, timestamp: '1531420619' })).toBe(false);
    expect(verifySlackSignature({ ...VECTOR, signature: VECTOR.signature.replace('v0=', 'v1=') })).toBe(false);
    expect(verifySlackSignature({ ...VECTOR, signature: undefined })).toBe(false);
    expect(verifySlackSignature({ ...VECTOR, signingSecret: '' })).toBe(false);
  });

  it('refuses it more than five minutes later (or earlier)', () => {
    vi.setSystemTime(Number(VECTOR.timestamp) * 1000 + 301_000);
    expect(verifySlackSignature(VECTOR)).toBe(false);
    vi.setSystemTime(Number(VECTOR.timestamp) * 1000 + 299_000);
    expect(verifySlackSignature(VECTOR)).toBe(true);
    vi.setSystemTime(Number(VECTOR.timestamp) * 1000 - 301_000);
    expect(verifySlackSignature(VECTOR)).toBe(false);
  });
});

const SECRET = 'slack-signing-secret-test';

function signed(body: string, secret = SECRET, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signature };
}

const message = (text: string, extra: Record<string, unknown> = {}, eventId = `Ev${Math.random()}`) =>
  JSON.stringify({ type: 'event_callback', team_id: 'T1', event_id: eventId, event: { type: 'message', channel: 'C1', user: 'U1', text, ts: '1700000000.000100', ...extra } });

describe('SlackTriggerAdapter.handleRequest', () => {
  it('answers the signed url_verification handshake after verifying it', async () => {
    const slack = new SlackTriggerAdapter({ signingSecret: SECRET, logger: memoryLogger() });
    const body = JSON.stringify({ type: 'url_verification', challenge: 'ch-123' });
    expect(await slack.handleRequest({ headers: signed(body), rawBody: Buffer.from(body) })).toEqual({ status: 200, body: { challenge: 'ch-123' } });
    const forged = await slack.handleRequest({ headers: signed(body, 'wrong'), rawBody: body });
    expect(forged).toEqual({ status: 401, body: { error: 'Unauthorized' } });
  });

  it('refuses unsigned, stale and altered requests with the generic 401 and logs why', async () => {
    const logger = memoryLogger();
    const slack = new SlackTriggerAdapter({ signingSecret: SECRET, logger });
    const onEvent = vi.fn();
    await slack.listen(agentReplying(), onEvent);
    const body = message('hi');
    const stale = signed(body, SECRET, Math.floor(Date.now() / 1000) - 301);
    for (const headers of [{}, stale, signed(body.replace('hi', 'ho'))]) {
      expect(await slack.handleRequest({ headers, rawBody: body })).toEqual({ status: 401, body: { error: 'Unauthorized' } });
    }
    expect(onEvent).not.toHaveBeenCalled();
    expect(logger.warnings.map((w) => w.match(/\((.*)\)/)?.[1])).toEqual(['missing X-Slack-Request-Timestamp header', expect.stringContaining('outside the five-minute window'), 'signature does not match']);
    expect(logger.warnings.join()).not.toContain(SECRET);
  });

  it('runs each message a person writes in the session of its thread, once', async () => {
    const agent = agentReplying('On it.');
    const events: TriggerEvent[] = [];
    const slack = new SlackTriggerAdapter({ signingSecret: SECRET });
    await slack.listen(agent, (input, event) => {
      events.push(event);
      return agent.send(input, { sessionId: event.sessionId });
    });
    const body = message('Check the build', {}, 'Ev1');
    const headers = { ...signed(body), 'Content-Type': 'application/json' };
    expect(await slack.handleRequest({ headers, rawBody: body })).toEqual({ status: 200, body: { ok: true, sessionId: 'slack:C1:1700000000.000100' } });
    // Slack's retry of the same event is not run again.
    expect((await slack.handleRequest({ headers: { ...signed(body), 'X-Slack-Retry-Num': '1' }, rawBody: body })).body).toEqual({ ok: true, duplicate: true });
    // Our own bot's messages and edits are ignored.
    for (const extra of [{ bot_id: 'B1' }, { subtype: 'message_changed' }]) {
      const other = message('x', extra);
      expect((await slack.handleRequest({ headers: signed(other), rawBody: other })).body).toEqual({ ok: true, ignored: true });
    }
    const reply = message('And the tests?', { ts: '1700000005.000100', thread_ts: '1700000000.000100' });
    await slack.handleRequest({ headers: signed(reply), rawBody: reply });
    expect(events.map((e) => e.sessionId)).toEqual(['slack:C1:1700000000.000100', 'slack:C1:1700000000.000100']);
    expect(agent.sessions.get('slack:C1:1700000000.000100')?.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Check the build', 'And the tests?']);
    // The thread is a session the HTTP handler serves.
    const read = await createAgentHandler(agent)(new Request('http://x/sessions/slack:C1:1700000000.000100'));
    expect(read.status).toBe(200);
  });

  it('listen() warns once without a signing secret', async () => {
    const logger = memoryLogger();
    const slack = new SlackTriggerAdapter({ logger });
    await slack.listen(agentReplying());
    await slack.stop();
    await slack.listen(agentReplying());
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/no signingSecret/);
    const quiet = memoryLogger();
    await new SlackTriggerAdapter({ signingSecret: SECRET, logger: quiet }).listen(agentReplying());
    expect(quiet.warnings).toEqual([]);
  });

  it('answers 503 before listen(), 400 for a body that is not JSON', async () => {
    const slack = new SlackTriggerAdapter({ signingSecret: SECRET });
    const body = message('hi');
    expect((await slack.handleRequest({ headers: signed(body), rawBody: body })).status).toBe(503);
    expect((await slack.handleRequest({ headers: signed('nope'), rawBody: 'nope' })).status).toBe(400);
  });
});

describe('slackChannel against a fake Slack Web API', () => {
  let fake: FakeSlack;
  let apiUrl: string;
  beforeEach(async () => {
    fake = new FakeSlack('xoxb-test');
    apiUrl = await fake.start();
  });
  afterEach(async () => {
    await fake.stop();
  });

  const deploy = defineTool({ name: 'deploy', description: 'Deploy', input: z.object({ env: z.string() }), needsApproval: true, execute: async ({ env }) => `deployed ${env}` });

  function mount(agent: Parameters<typeof mountChannels>[0], onError = vi.fn()) {
    const handle = mountChannels(agent, [slackChannel({ signingSecret: SECRET, botToken: 'xoxb-test', apiUrl, logger: memoryLogger() })], { onError });
    const send = async (body: string, contentType = 'application/json') => {
      const response = await handle(new Request('http://app.test/slack', { method: 'POST', body, headers: { 'content-type': contentType, ...signed(body) } }));
      await handle.idle();
      return response;
    };
    return { handle, send, onError };
  }

  const click = (action: 'lousho_approve' | 'lousho_reject', approvalId: string, messageTs: string) =>
    `payload=${encodeURIComponent(
      JSON.stringify({
        type: 'block_actions',
        user: { id: 'U2' },
        channel: { id: 'C1' },
        message: { ts: messageTs, thread_ts: '1700000000.000100' },
        actions: [{ action_id: action, value: approvalId, type: 'button' }],
      }),
    )}`;

  it('a thread is a session: the reply, then an approval with buttons, decided by a click', async () => {
    const agent = createAgent({ provider: mockModel(['Hello! What should I deploy?', { toolCalls: [{ name: 'deploy', args: { env: 'prod' } }] }, 'Deployed to prod.']), tools: [deploy] });
    const { send, onError } = mount(agent);

    const ack = await send(message('hi'));
    expect(ack.status).toBe(200);
    expect(fake.calls).toEqual([
      { method: 'chat.postMessage', authorization: 'Bearer xoxb-test', contentType: 'application/json; charset=utf-8', args: { channel: 'C1', thread_ts: '1700000000.000100', text: 'Hello! What should I deploy?' } },
    ]);

    await send(message('deploy prod', { ts: '1700000001.000100', thread_ts: '1700000000.000100' }));
    const ask = fake.calls[1]!;
    expect(ask.args).toMatchObject({ channel: 'C1', thread_ts: '1700000000.000100', text: 'Approval needed: deploy' });
    const buttons = ask.args.blocks[1].elements as { action_id: string; value: string }[];
    expect(buttons.map((b) => b.action_id)).toEqual(['lousho_approve', 'lousho_reject']);
    const approvalId = buttons[0]!.value;
    expect((await agent.approvals.list({ sessionId: 'slack:C1:1700000000.000100' }))[0]?.approvalId).toBe(approvalId);

    // The interactivity request (form-encoded `payload`) decides it.
    await send(click('lousho_approve', approvalId, '1700000101.000200'), 'application/x-www-form-urlencoded');
    expect(fake.calls.slice(2).map((c) => [c.method, c.args.ts ?? c.args.thread_ts, c.args.text])).toEqual([
      ['chat.update', '1700000101.000200', ':white_check_mark: Approved by <@U2>.'],
      ['chat.postMessage', '1700000000.000100', 'Deployed to prod.'],
    ]);
    expect(onError).not.toHaveBeenCalled();
    // Over HTTP, the session is the thread, and it is idle again.
    const session = (await (await createAgentHandler(agent)(new Request('http://x/sessions/slack:C1:1700000000.000100'))).json()) as { status: string; messages: unknown[] };
    expect(session.status).toBe('idle');
  });

  it('a rejection reaches the model with a note; a click for another thread or a stale approval is refused', async () => {
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'deploy', args: { env: 'prod' } }] }, 'Understood, not deploying.']), tools: [deploy] });
    const { send } = mount(agent);
    await send(message('deploy prod'));
    const approvalId = fake.calls[0]!.args.blocks[1].elements[0].value as string;
    await send(click('lousho_reject', 'appr_not_this_one', '1700000100.000200'), 'application/x-www-form-urlencoded');
    expect(fake.calls.at(-1)!.args.text).toMatch(/^:warning: That approval is not pending in this conversation.*\(LOUSHO_APPROVAL_NOT_FOUND\)$/);
    await send(click('lousho_reject', approvalId, '1700000100.000200'), 'application/x-www-form-urlencoded');
    expect(fake.calls.at(-1)!.args.text).toBe('Understood, not deploying.');
    const tool = agent.sessions.get('slack:C1:1700000000.000100')!.messages.find((m) => m.role === 'tool');
    expect(String(tool?.content)).toContain('Rejected in Slack by <@U2>.');
    // Clicking again: already decided.
    await send(click('lousho_approve', approvalId, '1700000100.000200'), 'application/x-www-form-urlencoded');
    expect(fake.calls.at(-1)!.args.text).toContain('LOUSHO_APPROVAL_NOT_FOUND');
  });

  it('a question is posted in the thread and the next message there answers it', async () => {
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'ask_question', args: { question: 'Which environment?' } }] }, (request) => `Deploying to ${String(request.messages.at(-1)?.content)}.`]),
      askQuestion: true,
    });
    const { send } = mount(agent);
    await send(message('deploy'));
    expect(fake.calls[0]!.args.text).toBe(':question: Which environment?\nReply in this thread to answer.');
    await send(message('staging', { ts: '1700000002.000100', thread_ts: '1700000000.000100' }));
    expect(fake.calls[1]!.args).toMatchObject({ thread_ts: '1700000000.000100', text: 'Deploying to staging.' });
  });

  it('another thread is another session; messages of one thread run one after another', async () => {
    let calls = 0;
    const agent = createAgent({ provider: mockModel([() => `reply ${++calls}`], { whenExhausted: 'repeat-last' }) });
    const { handle } = mount(agent);
    const post = (body: string) => handle(new Request('http://app.test/slack', { method: 'POST', body, headers: { 'content-type': 'application/json', ...signed(body) } }));
    await Promise.all([post(message('one')), post(message('two', { ts: '1700000003.000100', thread_ts: '1700000000.000100' })), post(message('three', { ts: '1700000009.000900' }))]);
    await handle.idle();
    expect(agent.sessions.get('slack:C1:1700000000.000100')?.messages.map((m) => m.content)).toEqual(['one', expect.any(String), 'two', expect.any(String)]);
    expect(agent.sessions.get('slack:C1:1700000009.000900')?.messages.map((m) => m.content)).toEqual(['three', expect.any(String)]);
    expect(fake.calls.map((c) => c.args.thread_ts).sort()).toEqual(['1700000000.000100', '1700000000.000100', '1700000009.000900']);
  });

  it('retries a rate-limited call after Retry-After, and reports an ok:false answer', async () => {
    const agent = agentReplying('hello');
    const { send, onError } = mount(agent);
    fake.failures.push({ status: 429, retryAfter: 0 });
    await send(message('hi'));
    expect(fake.calls.map((c) => c.method)).toEqual(['chat.postMessage', 'chat.postMessage']);
    expect(onError).not.toHaveBeenCalled();
    fake.failures.push({ error: 'channel_not_found' });
    await send(message('again', { ts: '1700000004.000100' }));
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'LOUSHO_SLACK_API_ERROR', slackError: 'channel_not_found' }), { channel: 'slack' });
  });

  it('refuses forged requests and answers the handshake', async () => {
    const agent = agentReplying();
    const { handle } = mount(agent);
    const body = message('hi');
    const forged = await handle(new Request('http://app.test/slack', { method: 'POST', body, headers: { 'content-type': 'application/json', ...signed(body, 'nope') } }));
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: 'Unauthorized' });
    const hello = JSON.stringify({ type: 'url_verification', challenge: 'c-9' });
    const handshake = await handle(new Request('http://app.test/slack', { method: 'POST', body: hello, headers: { 'content-type': 'application/json', ...signed(hello) } }));
    expect(await handshake.json()).toEqual({ challenge: 'c-9' });
    expect(fake.calls).toEqual([]);
  });

  it('mountChannels runs at most maxConcurrentRuns Slack messages at once: a burst past it gets 429 with Retry-After, and Slack\'s retry of a refused event runs later', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let started = 0;
    const step = async () => {
      started++;
      await gate;
      return 'ok';
    };
    const agent = createAgent({ provider: mockModel([step, step, step]) });
    const handle = mountChannels(agent, [slackChannel({ signingSecret: SECRET, botToken: 'xoxb-test', apiUrl, logger: memoryLogger() })], { maxConcurrentRuns: 2 });
    const post = (body: string) => handle(new Request('http://app.test/slack', { method: 'POST', body, headers: { 'content-type': 'application/json', ...signed(body) } }));
    const bodies = ['a', 'b', 'c', 'd'].map((thread, i) => message(`hi ${thread}`, { ts: `170000000${i}.000100` }, `Ev-${thread}`));
    const answers = await Promise.all(bodies.map(post));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429, 429]);
    expect(answers[2]!.headers.get('retry-after')).toBe('5');
    expect(((await answers[3]!.json()) as { error: { code: string } }).error.code).toBe('LOUSHO_TRIGGER_BUSY');
    await vi.waitFor(() => expect(started).toBe(2));
    open();
    await handle.idle();
    // Slack sends the refused event again (same event_id): it was not marked seen, so it runs now.
    expect((await post(bodies[2]!)).status).toBe(200);
    await handle.idle();
    expect(started).toBe(3);
    expect(fake.calls.map((call) => call.args.thread_ts).sort()).toEqual(['1700000000.000100', '1700000001.000100', '1700000002.000100']);
  });
});
