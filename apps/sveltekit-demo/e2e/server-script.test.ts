import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { inRepo } from 'e2e/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_DIR } from './support/sveltekit-demo.js';

/** Runs a Node script until it exits (or `until` matches its output, then stops it); returns what it printed. */
function run(args: string[], cwd: string, env: NodeJS.ProcessEnv, until?: RegExp): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The webhook triggers on free ports: only the port under test can be taken.
    const childEnv: NodeJS.ProcessEnv = { ...process.env, LOUSHO_MODEL: '', DEMO_WEBHOOK_PORT: '0', ...env };
    for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
    const child = spawn(process.execPath, args, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (until?.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let blocker: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve())));

describe('npm run demo:svelte (server.js)', () => {
  it('a taken port is one line, the same as the demo server says, and exit code 1: no stack', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;

    const svelte = await run(['server.js'], APP_DIR, { PORT: String(port) });
    expect(svelte.code).toBe(1);
    expect(svelte.stderr).toBe(`Port ${port} is in use: start with PORT=<another port>.\n`);
    expect(svelte.stdout).toBe('');

    const demoServer = await run(['--import', 'tsx', '--conditions=@lousho/source', 'src/main.ts'], inRepo('apps/demo-server'), { PORT: String(port), DEMO_DATA_DIR: mkdtempSync(join(tmpdir(), 'lousho-port-')) });
    expect(demoServer.code).toBe(1);
    expect(demoServer.stderr).toBe(svelte.stderr);
  });

  it('a taken webhook port is one line too (the demo server’s), after the address, and exit code 1', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const webhookPort = (blocker.address() as { port: number }).port;

    const svelte = await run(['server.js'], APP_DIR, { PORT: '0', DEMO_WEBHOOK_PORT: String(webhookPort) });
    expect(svelte.code).toBe(1);
    expect(svelte.stderr).toBe('The webhook port is in use: start with DEMO_WEBHOOK_PORT=<another port> (0 picks a free one).\n');
    expect(svelte.stdout).toMatch(/^Lousho SvelteKit demo running at .*\n.*\n$/);
  });

  it('listens on 127.0.0.1 unless HOST says otherwise, says where the other demos are, then how to call its webhook', async () => {
    const started = await run(['server.js'], APP_DIR, { PORT: '0', HOST: undefined, ORIGIN: undefined, DEMO_WEBHOOK_TOKEN: undefined }, /Coding tools: .*\n/);
    expect(started.stdout).toMatch(
      /^Lousho SvelteKit demo running at http:\/\/127\.0\.0\.1:\d+\/\n {2}The React and Vue demos: npm run demo \(http:\/\/127\.0\.0\.1:3000\/ and \/vue\/\)\n {2}Webhook trigger http:\/\/127\.0\.0\.1:\d+\/webhook \(token made for this run\):\n {4}curl -X POST http:\/\/127\.0\.0\.1:\d+\/webhook -H 'Authorization: Bearer [\w-]{24}' .*\n {2}Cron trigger {4}off .*\n {2}Coding tools: .*\n$/,
    );
    expect(started.stderr).toBe('');
  });

  it('says whether the coding tools\u2019 commands are confined: bubblewrap here, so a real copy of the project, removed on exit', async () => {
    const started = await run(['server.js'], APP_DIR, { PORT: '0' }, /Coding tools: .*\n/);
    const copy = /a real copy of the demo project in (\S+); commands run in a bubblewrap sandbox/.exec(started.stdout)?.[1];
    expect(copy, started.stdout).toBeDefined();
    // Stopped with SIGTERM (as Ctrl-C would): the copy goes with the process.
    expect(started.code).toBe(0);
    expect(existsSync(copy!)).toBe(false);
  });

  it('PORT=P says to start the React and Vue demos beside it, at P - 1 (where its pages link)', async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as { port: number }).port;
    await new Promise<void>((resolve) => free.close(() => resolve()));
    const started = await run(['server.js'], APP_DIR, { PORT: String(port), HOST: undefined }, /The React and Vue demos: .*\n/);
    expect(started.stdout).toContain(`  The React and Vue demos: PORT=${port - 1} npm run demo (http://127.0.0.1:${port - 1}/ and /vue/)\n`);
  });
});

describe('npm run demo:svelte while the demo is rebuilt', () => {
  let server: ChildProcess | undefined;
  afterEach(() => {
    server?.kill('SIGKILL');
    server = undefined;
  });

  /** Starts server.js of `appDir` on a free port; resolves with its address once it listens. */
  function start(appDir: string): Promise<{ url: string; output: () => string }> {
    return new Promise((resolve, reject) => {
      const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOUSHO_MODEL: '', DEMO_WEBHOOK_PORT: '0' };
      delete env['HOST'];
      const child = spawn(process.execPath, ['server.js'], { cwd: appDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      server = child;
      let output = '';
      const collect = (chunk: string) => {
        output += chunk;
        const url = /running at (http:\/\/\S+\/)/.exec(output)?.[1];
        if (url) resolve({ url, output: () => output });
      };
      child.stdout.setEncoding('utf8').on('data', collect);
      child.stderr.setEncoding('utf8').on('data', collect);
      child.once('exit', (code) => reject(new Error(`server.js exited (${code}):\n${output}`)));
    });
  }

  it('goes on serving (pages and assets) while build/ is emptied and rewritten, and says a restart serves the new build', async () => {
    // A copy of the app (its server script and build), so the build the other tests use stays put.
    const appDir = mkdtempSync(join(tmpdir(), 'lousho-sveltekit-rebuild-'));
    for (const file of ['server.js', 'package.json']) cpSync(join(APP_DIR, file), join(appDir, file));
    cpSync(join(APP_DIR, 'build'), join(appDir, 'build'), { recursive: true });
    // The build leaves its server-only dependencies (jsdom) to node_modules, as adapter-node does.
    symlinkSync(join(APP_DIR, 'node_modules'), join(appDir, 'node_modules'), 'dir');
    const { url, output } = await start(appDir);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    // The page's script, e.g. import("./_app/immutable/entry/start.JSGjEIkM.js").
    const asset = /"((?:\.\/|\/)_app\/immutable\/entry\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset, html).toBeDefined();
    const assetUrl = new URL(asset!, url).href;
    const before = await (await fetch(assetUrl)).text();

    // What a rebuild does first: build/ is gone (adapter-node empties it before writing).
    rmSync(join(appDir, 'build'), { recursive: true, force: true });
    const during = await fetch(assetUrl);
    expect(during.status).toBe(200);
    expect(await during.text()).toBe(before);
    expect((await fetch(url)).status).toBe(200);

    // ...then the new build is written: still served, the server still up.
    cpSync(join(APP_DIR, 'build'), join(appDir, 'build'), { recursive: true });
    expect((await fetch(assetUrl)).status).toBe(200);
    expect((await fetch(url)).status).toBe(200);
    expect(server!.exitCode).toBeNull();
    await expect.poll(output).toContain('build changed: this server goes on serving the build it started with; restart it to serve the new one.');
  });
});
