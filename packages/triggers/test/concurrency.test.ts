import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '@lousho/sqlite';
import { SlackTriggerAdapter, WebhookTriggerAdapter, type TriggerAgent, type WebhookTriggerOptions } from '../src/index.js';
import { agentReplying, hmacHex, post } from './helpers.js';

const adapters: WebhookTriggerAdapter[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.stop()));
});

/** A handler that holds every run until `open()`, counting how many run at once. */
function gatedHandler(agent: TriggerAgent) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const state = { running: 0, most: 0, started: 0 };
  const handler = async (input: unknown, event: { sessionId: string }) => {
    state.started++;
    state.most = Math.max(state.most, ++state.running);
    await gate;
    state.running--;
    return agent.send(input as string, { sessionId: event.sessionId });
  };
  return { handler, state, open: () => open() };
}

async function startWebhook(options: WebhookTriggerOptions, onEvent: Parameters<WebhookTriggerAdapter['listen']>[1]) {
  const adapter = new WebhookTriggerAdapter({ port: 0, host: '127.0.0.1', auth: { type: 'bearer', token: 't' }, ...options });
  adapters.push(adapter);
  await adapter.listen(agentReplying(), onEvent);
  return { adapter, url: `http://127.0.0.1:${adapter.address!.port}/` };
}

describe('WebhookTriggerAdapter: concurrency', () => {
  it('200 authenticated requests at once start at most maxConcurrentRuns runs (default 16); the rest get 429 with Retry-After', async () => {
    const gated = gatedHandler(agentReplying());
    const { url } = await startWebhook({ respond: 'accepted' }, gated.handler);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => post(url, JSON.stringify({ input: `job ${i}` }), { authorization: 'Bearer t' })));
    const accepted = answers.filter((answer) => answer.status === 202);
    const busy = answers.filter((answer) => answer.status === 429);
    expect(accepted).toHaveLength(16);
    expect(busy).toHaveLength(184);
    expect(busy[0]!.body).toEqual({ error: { code: 'LOUSHO_TRIGGER_BUSY', message: 'The webhook trigger is running 16 runs (maxConcurrentRuns); try again in 5 s.' } });
    const raw = await fetch(url, { method: 'POST', body: '{}', headers: { authorization: 'Bearer t' } });
    expect(raw.status).toBe(429);
    expect(raw.headers.get('retry-after')).toBe('5');
    await raw.text();
    expect(gated.state.most).toBe(16);
    gated.open();
    // Finished runs free their slots: the next request runs.
    await adapters[0]!.stop();
    adapters.length = 0;
    expect(gated.state.started).toBe(16);
  });

  it('with respond "after-run" the slots are the requests in flight; a finished one frees its slot', async () => {
    const gated = gatedHandler(agentReplying());
    const { url } = await startWebhook({ maxConcurrentRuns: 2, retryAfterSeconds: 1 }, gated.handler);
    const first = post(url, '{"input":"a"}', { authorization: 'Bearer t' });
    const second = post(url, '{"input":"b"}', { authorization: 'Bearer t' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await post(url, '{"input":"c"}', { authorization: 'Bearer t' });
    expect(third.status).toBe(429);
    gated.open();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect((await post(url, '{"input":"d"}', { authorization: 'Bearer t' })).status).toBe(200);
  });

  it('bounds that are not positive integers are config errors', () => {
    expect(() => new WebhookTriggerAdapter({ maxConcurrentRuns: 0 })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => new WebhookTriggerAdapter({ retryAfterSeconds: 1.5 })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => new SlackTriggerAdapter({ maxConcurrentRuns: -1 })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });
});

describe('SlackTriggerAdapter: concurrency', () => {
  const message = (n: number) => ({ headers: {}, rawBody: JSON.stringify({ type: 'event_callback', event_id: `Ev${n}`, event: { type: 'message', channel: 'C1', user: 'U1', text: `hi ${n}`, ts: `${n}.0` } }) });

  it('past maxConcurrentRuns a message is answered 429 with Retry-After and not marked seen (Slack retries it and it runs)', async () => {
    const slack = new SlackTriggerAdapter({ maxConcurrentRuns: 1, logger: { warn: () => {} } });
    const gated = gatedHandler(agentReplying());
    await slack.listen(agentReplying(), gated.handler);
    const first = slack.handleRequest(message(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await slack.handleRequest(message(2))).toEqual({
      status: 429,
      headers: { 'retry-after': '5' },
      body: { error: { code: 'LOUSHO_TRIGGER_BUSY', message: 'The Slack trigger is running 1 runs (maxConcurrentRuns); try again in 5 s.' } },
    });
    gated.open();
    expect((await first).status).toBe(200);
    expect(await slack.handleRequest(message(2))).toMatchObject({ status: 200, body: { ok: true } });
  });
});

describe('WebhookTriggerAdapter: replay protection on the session store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lousho-trigger-replay-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a signed request replayed after a restart, or to another process on the same store, is refused', async () => {
    const path = join(dir, 'sessions.db');
    const auth = { type: 'hmac', secret: 'whsec', timestampHeader: 'x-ts' } as const;
    const payload = '{"input":"deploy"}';
    const ts = String(Math.floor(Date.now() / 1000));
    const headers = { 'x-ts': ts, 'x-signature-256': `sha256=${hmacHex('whsec', `${ts}.${payload}`)}` };
    const storeA = new SqliteStore(path);
    const a = await startWebhook({ auth, replayStore: storeA.replays }, (input) => input);
    expect((await post(a.url, payload, headers)).status).toBe(200);
    await a.adapter.stop();
    storeA.close();
    // "Restarted": a new adapter and a new store handle on the same file; and a second one beside it.
    const storeB = new SqliteStore(path);
    const storeC = new SqliteStore(path);
    const b = await startWebhook({ auth, replayStore: storeB.replays }, (input) => input);
    const c = await startWebhook({ auth, replayStore: storeC.replays }, (input) => input);
    expect((await post(b.url, payload, headers)).status).toBe(401);
    expect((await post(c.url, payload, headers)).status).toBe(401);
    const fresh = '{"input":"again"}';
    const freshHeaders = { 'x-ts': ts, 'x-signature-256': `sha256=${hmacHex('whsec', `${ts}.${fresh}`)}` };
    expect((await post(c.url, fresh, freshHeaders)).status).toBe(200);
    expect((await post(b.url, fresh, freshHeaders)).status).toBe(401);
    storeB.close();
    storeC.close();
  });
});
