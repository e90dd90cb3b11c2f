import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoAgent, createDemoModel, createTriageAgent } from '@lousho/demo-agent';
import { OFFLINE_MODEL_INFO } from '../src/model.js';
import { createDemoServer } from '../src/server.js';

// A workspace with a secret next to the served folder, to prove nothing outside it leaks.
const root = mkdtempSync(join(tmpdir(), 'demo-server-test-'));
const dist = join(root, 'dist');
const vueDist = join(root, 'vue-dist');
mkdirSync(join(dist, 'assets'), { recursive: true });
mkdirSync(vueDist);
writeFileSync(join(root, 'secret.txt'), 'TOP-SECRET');
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>react</title>');
writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
writeFileSync(join(dist, 'assets', 'app-abc123.css'), 'body{}');
writeFileSync(join(dist, 'logo.svg'), '<svg/>');
writeFileSync(join(dist, '.env'), 'KEY=hidden');
writeFileSync(join(vueDist, 'index.html'), '<!doctype html><title>vue</title>');

let server: Server;
let port: number;

beforeAll(async () => {
  const agent = createDemoAgent({ provider: createDemoModel({ charDelayMs: 0 }), toolDelayScale: 0 });
  server = createDemoServer({
    agent,
    triage: createTriageAgent({ charDelayMs: 0 }),
    model: OFFLINE_MODEL_INFO,
    apps: [
      { name: 'React demo', mountPath: '/', dir: dist, buildCommand: 'build react' },
      { name: 'Vue demo', mountPath: '/vue/', dir: vueDist, buildCommand: 'build vue' },
      { name: 'Svelte demo', mountPath: '/svelte/', dir: join(root, 'not-built'), buildCommand: 'pnpm --filter svelte-demo build' },
    ],
    onError: () => {},
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with the path sent exactly as written (fetch would normalize `..` away). */
function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('static files', () => {
  it('serves the app page with an HTML content type and a restrictive CSP', async () => {
    const res = await raw('/', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<title>react</title>');
  });

  it('serves assets with their content types, hashed ones cached for good', async () => {
    const js = await raw('/assets/app-abc123.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toContain('immutable');
    expect(js.body).toBe('console.log(1)');
    expect((await raw('/assets/app-abc123.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await raw('/logo.svg')).headers['content-type']).toBe('image/svg+xml');
  });

  it('answers client-side routes with the app page, and missing files with 404', async () => {
    const route = await raw('/chat/some-session', { headers: { accept: 'text/html,*/*' } });
    expect(route.status).toBe(200);
    expect(route.body).toContain('<title>react</title>');
    const missing = await raw('/assets/missing.js');
    expect(missing.status).toBe(404);
    expect(missing.body).not.toContain('<title>');
  });

  it('never serves files outside the app folder, however the path is written', async () => {
    const attempts = [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/%00../secret.txt',
      '//etc/passwd',
      `/${encodeURIComponent(join(root, 'secret.txt'))}`,
    ];
    for (const path of attempts) {
      const res = await raw(path, { headers: { accept: 'application/json' } });
      expect(res.body, path).not.toContain('TOP-SECRET');
      expect(res.body, path).not.toContain('root:');
      expect([400, 404], path).toContain(res.status);
    }
  });

  it('keeps dotfiles private', async () => {
    const res = await raw('/.env');
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('hidden');
  });

  it('serves a second app below its own path, and the root app elsewhere', async () => {
    expect((await raw('/vue/', { headers: { accept: 'text/html' } })).body).toContain('<title>vue</title>');
    expect((await raw('/vue/settings', { headers: { accept: 'text/html' } })).body).toContain('<title>vue</title>');
    const bare = await raw('/vue');
    expect(bare.status).toBe(308);
    expect(bare.headers.location).toBe('/vue/');
    expect((await raw('/vuetify', { headers: { accept: 'text/html' } })).body).toContain('<title>react</title>');
  });

  it('says how to build an app that is not built yet', async () => {
    const res = await raw('/svelte/', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(503);
    expect(res.body).toContain('pnpm --filter svelte-demo build');
  });

  it('refuses to write to static paths', async () => {
    const res = await raw('/index.html', { method: 'POST', body: 'x' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('api', () => {
  it('tells the UI which model answers', async () => {
    const res = await raw('/api/info');
    expect(res.status).toBe(200);
    const info = JSON.parse(res.body) as { model: typeof OFFLINE_MODEL_INFO; apps: { name: string; path: string }[] };
    expect(info.model).toEqual(OFFLINE_MODEL_INFO);
    expect(info.apps.map((app) => app.path)).toEqual(expect.arrayContaining(['/', '/vue/']));
  });

  it('serves the agent at /api/agent: a turn streams the demo model reply', async () => {
    const created = await raw('/api/agent/sessions', { method: 'POST' });
    expect(created.status).toBe(201);
    const { sessionId } = JSON.parse(created.body) as { sessionId: string };
    const turn = await raw(`/api/agent/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'echo hello from the test' }),
    });
    expect(turn.status).toBe(200);
    expect(turn.headers['content-type']).toContain('text/event-stream');
    expect(turn.body).toContain('"type":"run.done"');
    expect(turn.body).toContain('hello from the test');
  });

  it('serves the triage flow at /api/triage: a run streams its node events and pauses for review', async () => {
    const run = await raw('/api/triage/sessions/triage-test/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'I was charged twice, please refund me' }),
    });
    expect(run.status).toBe(200);
    expect(run.headers['content-type']).toContain('text/event-stream');
    expect(run.body).toContain('"type":"flow.node.start"');
    expect(run.body).toContain('"branch":"refund"');
    expect(run.body).toContain('"finishReason":"awaiting-approval"');
    const session = JSON.parse((await raw('/api/triage/sessions/triage-test')).body) as { status: string; pendingApproval: { toolName: string } };
    expect(session.status).toBe('awaiting-approval');
    expect(session.pendingApproval.toolName).toBe('review');
  });

  it('answers unknown API paths with 404 instead of the app page', async () => {
    const res = await raw('/api/nope', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('<title>');
  });
});
