import { createHmac } from 'node:crypto';
import { Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CronTriggerAdapter, WebhookTriggerAdapter } from '@lousho/build-ai-agent/triggers';

// The Triggers snippets listen on fixed ports (8787, 3000) and start timers. Run as written, with
// the environment they read, on free loopback ports (so a busy port on this machine cannot fail
// them), and everything they start is stopped afterwards so the test run does not hang.
const servers: Server[] = [];
const webhooks: WebhookTriggerAdapter[] = [];
const crons: CronTriggerAdapter[] = [];

beforeAll(() => {
  process.env.WEBHOOK_SECRET = 'docs-webhook-secret';
  process.env.WEBHOOK_TOKEN = 'docs-webhook-token';
  process.env.API_KEY = 'docs-api-key';
  process.env.SLACK_SIGNING_SECRET = 'docs-slack-secret';
  const listen = Server.prototype.listen;
  vi.spyOn(Server.prototype, 'listen').mockImplementation(function (this: Server, ...args: unknown[]) {
    servers.push(this);
    const callback = args.find((arg) => typeof arg === 'function');
    return (listen as (...args: unknown[]) => Server).call(this, 0, '127.0.0.1', callback);
  });
  const webhookListen = WebhookTriggerAdapter.prototype.listen;
  vi.spyOn(WebhookTriggerAdapter.prototype, 'listen').mockImplementation(function (this: WebhookTriggerAdapter, ...args) {
    webhooks.push(this);
    return webhookListen.apply(this, args);
  });
  const cronListen = CronTriggerAdapter.prototype.listen;
  vi.spyOn(CronTriggerAdapter.prototype, 'listen').mockImplementation(function (this: CronTriggerAdapter, ...args) {
    crons.push(this);
    return cronListen.apply(this, args);
  });
});

afterAll(async () => {
  await Promise.all([...webhooks.map((w) => w.stop()), ...crons.map((c) => c.stop())]);
  await Promise.all(servers.filter((s) => s.listening).map((s) => new Promise((resolve) => s.close(resolve))));
  vi.restoreAllMocks();
});

const portOf = (server: Server) => (server.address() as { port: number }).port;
const waitListening = async (server: Server) => {
  while (!server.listening) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('Triggers snippets run unchanged', () => {
  it('Webhook authentication: the HMAC webhook runs the agent for a signed body and refuses others', async () => {
    await import('./snippets/triggers-webhook-auth.js');
    expect(webhooks).toHaveLength(1);
    await waitListening(servers.at(-1)!);
    const url = `http://127.0.0.1:${portOf(servers.at(-1)!)}/`;
    const body = JSON.stringify({ input: 'Hello from GitHub' });
    const signature = `sha256=${createHmac('sha256', 'docs-webhook-secret').update(body).digest('hex')}`;
    const ok = await fetch(url, { method: 'POST', body, headers: { 'x-signature-256': signature } });
    expect(await ok.json()).toMatchObject({ finishReason: 'stop', text: expect.stringContaining('Hello from GitHub') });
    const forged = await fetch(url, { method: 'POST', body, headers: { 'x-signature-256': 'sha256=00' } });
    expect(forged.status).toBe(401);
    expect(await forged.text()).toBe('{"error":"Unauthorized"}');
  });

  it('Slack request signatures: the server answers a signed handshake; the placeholder signature is not authentic', async () => {
    const { authentic } = await import('./snippets/triggers-slack.js');
    expect(authentic).toBe(false);
    const server = servers.at(-1)!;
    await waitListening(server);
    const body = JSON.stringify({ type: 'url_verification', challenge: 'abc' });
    const ts = String(Math.floor(Date.now() / 1000));
    const signature = `v0=${createHmac('sha256', 'docs-slack-secret').update(`v0:${ts}:${body}`).digest('hex')}`;
    const res = await fetch(`http://127.0.0.1:${portOf(server)}/`, { method: 'POST', body, headers: { 'x-slack-request-timestamp': ts, 'x-slack-signature': signature } });
    expect(await res.json()).toEqual({ challenge: 'abc' });
    const unsigned = await fetch(`http://127.0.0.1:${portOf(server)}/`, { method: 'POST', body });
    expect(unsigned.status).toBe(401);
  });

  it('Cron schedules: armed for the next weekday quarter hour between 9:00 and 17:45 in Paris', async () => {
    await import('./snippets/triggers-cron.js');
    expect(crons).toHaveLength(1);
    const next = crons[0]!.nextRunAt!;
    const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Paris', weekday: 'short', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }).formatToParts(next).map((p) => [p.type, p.value]));
    expect(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']).toContain(parts.weekday);
    expect(Number(parts.hour)).toBeGreaterThanOrEqual(9);
    expect(Number(parts.hour)).toBeLessThanOrEqual(17);
    expect(Number(parts.minute) % 15).toBe(0);
    expect(next.getTime()).toBeGreaterThan(Date.now());
  });
});
