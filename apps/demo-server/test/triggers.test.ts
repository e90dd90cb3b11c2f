import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore } from '@lousho/core';
import { createDemoAgent, createDemoModel } from '@lousho/demo-agent';
import { OFFLINE_MODEL_INFO } from '../src/model.js';
import { createDemoServer } from '../src/server.js';
import { startDemoTriggers, triggerSettings, type DemoTriggers } from '@lousho/demo-agent/server';

const store = memoryStore();
const agent = createDemoAgent({ provider: createDemoModel({ charDelayMs: 0 }), toolDelayScale: 0, store });
let triggers: DemoTriggers;
let server: Server;
let base: string;

beforeAll(async () => {
  triggers = await startDemoTriggers(agent, triggerSettings({ DEMO_WEBHOOK_PORT: '0', DEMO_WEBHOOK_TOKEN: 'secret-token' }, '127.0.0.1'), { warn: () => {} });
  server = createDemoServer({ agent, model: OFFLINE_MODEL_INFO, apps: [], sessions: store.sessions, triggers, onError: () => {} });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await triggers.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await agent.close();
});

const post = (token: string, body: unknown) =>
  fetch(triggers.webhookUrl, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the demo triggers', () => {
  it('refuses a wrong token with the generic 401 and starts nothing', async () => {
    const res = await post('nope', { input: 'hi' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Unauthorized' });
    const { sessions } = (await (await fetch(`${base}/api/sessions`)).json()) as { sessions: unknown[] };
    expect(sessions).toEqual([]);
  });

  it('runs a webhook call in a session the HTTP handler shows, paused for the email approval, and lists it', async () => {
    const res = await post('secret-token', { input: 'email bob@example.com about the launch' });
    expect(res.status).toBe(202);
    const { sessionId } = (await res.json()) as { sessionId: string };
    let session: { status: string; pendingApproval: { toolName: string; approvalId: string } | null } | undefined;
    for (let i = 0; i < 100 && session?.status !== 'awaiting-approval'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      session = (await (await fetch(`${base}/api/agent/sessions/${sessionId}`)).json()) as typeof session;
    }
    expect(session?.pendingApproval?.toolName).toBe('send_email');

    const { sessions } = (await (await fetch(`${base}/api/sessions`)).json()) as { sessions: { sessionId: string; origin: string; pending: string | null }[] };
    expect(sessions[0]).toMatchObject({ sessionId, origin: 'webhook', pending: 'tool' });
    const info = (await (await fetch(`${base}/api/info`)).json()) as { triggers: { webhook: string; cron: null } };
    expect(info.triggers).toEqual({ webhook: triggers.webhookUrl, cron: null });
    expect(JSON.stringify(info)).not.toContain('secret-token');
  });

  it('answers 405 to anything but GET on /api/sessions', async () => {
    const res = await fetch(`${base}/api/sessions`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('refuses a bad DEMO_WEBHOOK_PORT by name', () => {
    expect(() => triggerSettings({ DEMO_WEBHOOK_PORT: 'x' }, '127.0.0.1')).toThrow(/DEMO_WEBHOOK_PORT/);
  });
});
