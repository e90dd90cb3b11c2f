import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createEventStreamDecoder } from '@lousho/protocol';

/**
 * What clients that stop reading cost the server, measured in a server process of its own (RSS and
 * heap after garbage collection). Bounds, not timings: each step waits for a state of the server
 * (streams open, sockets full, run ended), however long the machine takes to get there.
 */

const here = dirname(fileURLToPath(import.meta.url));
const coreDir = resolve(here, '../..');
const cacheDir = join(coreDir, 'node_modules/.cache/lousho-slow-reader-test');
const bundle = join(cacheDir, `slow-reader-server-${process.pid}.mjs`);
const REPLY_MB = 50;
const CLIENTS = 10;
const MB = 1024 * 1024;

let child: ChildProcess | undefined;
let base = '';
const sockets: Socket[] = [];

beforeAll(async () => {
  // Bundled once with esbuild (the one tsx runs on): the child starts without loading TypeScript.
  const fromTsx = createRequire(createRequire(join(coreDir, 'package.json')).resolve('tsx'));
  const esbuild = fromTsx('esbuild') as { build(options: Record<string, unknown>): Promise<unknown> };
  mkdirSync(cacheDir, { recursive: true });
  await esbuild.build({
    entryPoints: [join(here, 'fixtures/slow-reader-server.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@lousho/source'],
    logLevel: 'silent',
  });
  const proc = spawn(process.execPath, ['--expose-gc', bundle, String(REPLY_MB)], { cwd: coreDir, stdio: ['ignore', 'pipe', 'inherit'] });
  child = proc;
  base = await new Promise<string>((resolvePort, reject) => {
    let out = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /ready (\d+)/.exec(out)?.[1];
      if (port) resolvePort(`http://127.0.0.1:${port}`);
    });
    proc.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
  });
}, 120_000);

afterAll(() => {
  for (const socket of sockets) socket.destroy();
  if (child?.pid !== undefined && child.exitCode === null) child.kill('SIGKILL');
  rmSync(bundle, { force: true });
});

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  open: number;
  waiting: number;
  status: string | null;
}

const memory = async (session?: string): Promise<Memory> => (await fetch(`${base}/__memory${session ? `?session=${session}` : ''}`)).json() as Promise<Memory>;
const held = (m: Memory) => m.heapUsed + m.external;
const until = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 240_000, interval: 300 });

/** Reads a response to its end, keeping nothing. */
async function drain(response: Response): Promise<number> {
  let bytes = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

/**
 * Reads a session's reply to its end as a client that keeps up does: when the server cuts it for
 * falling behind (a test worker starved of CPU can), it resumes from its last event, as the HTTP
 * client would.
 */
async function readReply(path: string, body: string): Promise<void> {
  let response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  for (;;) {
    let ended = false;
    const decoder = createEventStreamDecoder((event) => void (ended ||= event.type === 'run.done'));
    try {
      const reader = response.body!.getReader();
      for (let chunk; !(chunk = await reader.read()).done; ) decoder.push(chunk.value);
    } catch {
      // Cut as a slow reader: resumed below.
    }
    if (ended) return;
    response = await fetch(`${base}${path.replace(/messages$/, 'events')}`, { headers: { 'last-event-id': decoder.lastEventId } });
  }
}

/** Sends a request on a raw socket that is never read from. */
function silent(method: string, path: string, body?: string): Socket {
  const { port } = new URL(base);
  const socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => {});
  socket.pause();
  const head = body === undefined ? '' : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
  socket.write(`${method} ${path} HTTP/1.1\r\nhost: localhost\r\n${head}\r\n${body ?? ''}`);
  sockets.push(socket);
  return socket;
}

/** One line for the log: what the measurement found (the bounds are asserted below it). */
function report(what: string, before: Memory, after: Memory): void {
  const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;
  process.stdout.write(`slow readers (${what}): rss ${mb(before.rss)} → ${mb(after.rss)}, heap+external ${mb(held(before))} → ${mb(held(after))}\n`);
}

async function closeAll(): Promise<void> {
  for (const socket of sockets.splice(0)) socket.destroy();
  await until(async () => expect((await memory()).open).toBe(0));
}

it(`${CLIENTS} clients that do not read the replay of a finished ${REPLY_MB} MB reply grow the server's RSS by less than 20 MB`, async () => {
  const input = JSON.stringify({ input: 'go' });
  // The reply, read by a client that keeps up; then one full replay, so every code path ran once.
  await readReply('/sessions/done/messages', input);
  expect((await memory('done')).status).toBe('idle');
  expect(await drain(await fetch(`${base}/sessions/done/events`))).toBeGreaterThan(REPLY_MB * 1_000_000);
  const before = await memory();

  for (let i = 0; i < CLIENTS; i++) silent('GET', '/sessions/done/events');
  // Every stream is open and its socket full: the server wrote all it will until someone reads.
  await until(async () => expect(await memory()).toMatchObject({ open: CLIENTS, waiting: CLIENTS }));
  const after = await memory();
  report('replay', before, after);
  expect((after.rss - before.rss) / MB, `RSS ${(before.rss / MB).toFixed(1)} → ${(after.rss / MB).toFixed(1)} MB`).toBeLessThan(20);
  expect((held(after) - held(before)) / MB).toBeLessThan(20);
  await closeAll();
}, 300_000);

it(`${CLIENTS} clients that do not read a live ${REPLY_MB} MB reply hold less than 20 MB of the server's memory`, async () => {
  const input = JSON.stringify({ input: 'go' });
  await fetch(`${base}/__hold`);
  // The turn's own client and nine followers, none of which reads.
  silent('POST', '/sessions/live/messages', input);
  await until(async () => expect((await memory('live')).status).toBe('running'));
  for (let i = 1; i < CLIENTS; i++) silent('GET', '/sessions/live/events');
  await until(async () => expect((await memory()).open).toBe(CLIENTS));
  await fetch(`${base}/__go`);
  // The run ends without its readers; then every stream still open waits for its reader.
  await until(async () => expect((await memory('live')).status).toBe('idle'));
  await until(async () => {
    const m = await memory();
    expect(m.waiting).toBe(m.open);
  });
  const withClients = await memory();
  await closeAll();
  const without = await memory();
  report('live', without, withClients);
  expect((held(withClients) - held(without)) / MB, `held by the connections, of ${(held(withClients) / MB).toFixed(1)} MB`).toBeLessThan(20);
}, 300_000);
