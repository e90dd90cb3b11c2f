import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixture, lousho, sseEvents, tempDir } from './helpers.js';

describe('lousho build --target workers', () => {
  it('bundles a Fetch handler with the browser/worker conditions, with no Node built-ins, that answers a turn', async () => {
    const out = join(await tempDir(), 'worker');
    const result = await lousho(['build', fixture('agent.ts'), '--target', 'workers', '--out', out, '--conditions', '@lousho/source']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('conditions: workerd, worker, browser');
    const code = await readFile(join(out, 'worker.mjs'), 'utf8');
    expect(code).not.toMatch(/["']node:/);
    expect(code).not.toMatch(/\brequire\(/);
    expect(await readFile(join(out, 'wrangler.toml'), 'utf8')).toContain('main = "worker.mjs"');

    const worker = (await import(pathToFileURL(join(out, 'worker.mjs')).href)) as { default: { fetch(request: Request, env?: object, ctx?: object): Promise<Response> } };
    expect(await (await worker.default.fetch(new Request('https://edge.test/healthz'))).json()).toEqual({ status: 'ok' });
    const response = await worker.default.fetch(
      new Request('https://edge.test/api/agent/sessions/edge-1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"hi"}' }),
      { DELAY_MS: '0' },
      { waitUntil: () => {} },
    );
    expect(sseEvents(await response.text()).at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
  }, 60_000);

  it('refuses an agent module that imports a Node built-in, naming the import', async () => {
    const out = join(await tempDir(), 'worker');
    const result = await lousho(['build', fixture('node-only-agent.ts'), '--target', 'workers', '--out', out, '--conditions', '@lousho/source']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('LOUSHO_DEPLOY_NODE_BUILTIN');
    expect(result.stderr).toMatch(/"node:fs" \(imported by .*node-only-agent\.ts:2\)/);
  }, 60_000);

  it('the same module builds for Node', async () => {
    const out = join(await tempDir(), 'server');
    expect((await lousho(['build', fixture('node-only-agent.ts'), '--target', 'node', '--out', out, '--conditions', '@lousho/source'])).code).toBe(0);
  }, 60_000);
});
