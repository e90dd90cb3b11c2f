import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, lousho, sseEvents, tempDir } from './helpers.js';

let out: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  out = join(await tempDir(), 'server');
  const result = await lousho(['build', fixture('agent.ts'), '--target', 'node', '--out', out, '--conditions', '@lousho/source']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}, 60_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts the built server on a free loopback port and resolves with its URL. */
function serve(env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [join(out, 'server.mjs')], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /serving the agent at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve({ url: match[1]!, child, output: () => output, exited });
    });
    void exited.then((code) => reject(new Error(`server exited (${code}): ${output}`)));
  });
}

const turn = (url: string, sessionId: string, input: string) =>
  fetch(`${url}/api/agent/sessions/${sessionId}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input }) });

describe('lousho build --target node', () => {
  it('writes a standalone bundle: server.mjs and its package.json', async () => {
    expect(existsSync(join(out, 'server.mjs'))).toBe(true);
    expect(existsSync(join(out, '.lousho'))).toBe(false);
    const manifest = JSON.parse(await readFile(join(out, 'package.json'), 'utf8')) as { type: string; dependencies: Record<string, string> };
    expect(manifest).toMatchObject({ type: 'module', dependencies: {} });
    // Everything the agent needs is inside the bundle: no workspace or node_modules imports left.
    const code = await readFile(join(out, 'server.mjs'), 'utf8');
    const imports = [...code.matchAll(/^import\s[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((name) => !name!.startsWith('node:'))).toEqual([]);
  });

  it('the built server answers a turn over HTTP and serves /healthz', async () => {
    const { url, child, exited } = await serve();
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    const response = await turn(url, 'built-1', 'hi');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = sseEvents(await response.text());
    expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    // The reply is in the deltas (run.done does not repeat it on the wire).
    const reply = events.filter((event) => event.type === 'text.delta').map((event) => event.delta as string).join('');
    expect(reply).toBe('Hello from the built server, and a few more words to stream slowly.');
    const session = (await (await fetch(`${url}/api/agent/sessions/built-1`)).json()) as { messages: { role: string }[] };
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 30_000);

  it('on SIGTERM, a running turn finishes, health says draining, and the process exits 0', async () => {
    const { url, child, output, exited } = await serve({ DELAY_MS: '60' });
    const response = await turn(url, 'slow-1', 'take your time');
    const body = response.text();
    await new Promise((resolve) => setTimeout(resolve, 150));
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // New connections are refused while draining: the port is closed.
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    const events = sseEvents(await body);
    expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    expect(await exited).toBe(0);
    expect(output()).toContain('1 running turn(s)');
  }, 30_000);

  it('a turn still running at the shutdown deadline is stopped (checkpointed as stopped), then the process exits', async () => {
    const { url, child, output, exited } = await serve({ DELAY_MS: '400', LOUSHO_SHUTDOWN_TIMEOUT_MS: '300' });
    const response = await turn(url, 'slow-2', 'this is long');
    const body = response.text();
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill('SIGTERM');
    const events = sseEvents(await body);
    expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'aborted' });
    expect(await exited).toBe(0);
    expect(output()).toContain('stopping 1 turn(s) still running');
  }, 30_000);
});
