/** Starts the handler processes of the two-process tests (bundled once with esbuild, like the crash test). */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '..');
// Inside the package, so the bundle resolves `pg` from the package's own node_modules.
const cacheDir = join(packageDir, 'node_modules/.cache/lousho-postgres-test');

/** Bundles the child once per test file; returns its path and a cleanup. */
export async function bundleChild(): Promise<{ file: string; remove(): void }> {
  const fromTsx = createRequire(createRequire(join(packageDir, 'package.json')).resolve('tsx'));
  const esbuild = fromTsx('esbuild') as { build(options: Record<string, unknown>): Promise<unknown> };
  mkdirSync(cacheDir, { recursive: true });
  const file = join(cacheDir, `handler-child-${process.pid}-${Math.random().toString(36).slice(2, 8)}.mjs`);
  await esbuild.build({
    entryPoints: [join(here, 'fixtures/handler-child.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@lousho/source'],
    external: ['pg', 'better-sqlite3'],
    logLevel: 'silent',
  });
  return { file, remove: () => rmSync(file, { force: true }) };
}

export interface ChildMessage {
  type: string;
  [key: string]: unknown;
}

export interface HandlerProcess {
  url: string;
  child: ChildProcess;
  /** Every IPC message received so far. */
  messages: ChildMessage[];
  /** Resolves with the first message (already received or future) that matches. */
  next(match: (message: ChildMessage) => boolean, timeoutMs?: number): Promise<ChildMessage>;
  send(message: string | object): void;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startHandler(file: string, databaseUrl: string, schema: string, leaseMs: number): Promise<HandlerProcess> {
  const child = fork(file, [databaseUrl, schema, String(leaseMs)], { cwd: packageDir, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const messages: ChildMessage[] = [];
  const waiters = new Set<{ match: (m: ChildMessage) => boolean; resolve: (m: ChildMessage) => void }>();
  child.on('message', (raw) => {
    const message = raw as ChildMessage;
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.match(message)) {
        waiters.delete(waiter);
        waiter.resolve(message);
      }
    }
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const next = (match: (m: ChildMessage) => boolean, timeoutMs = 30_000): Promise<ChildMessage> => {
    const seen = messages.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolvePromise, reject) => {
      const waiter = { match, resolve: resolvePromise };
      waiters.add(waiter);
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`no matching message from the child within ${timeoutMs} ms (got ${JSON.stringify(messages)})`));
      }, timeoutMs);
      void exited.then(() => {
        if (waiters.delete(waiter)) reject(new Error(`the child exited (${child.exitCode ?? child.signalCode}) before sending the message`));
      });
      const original = waiter.resolve;
      waiter.resolve = (m) => {
        clearTimeout(timer);
        original(m);
      };
    });
  };
  const ready = await next((m) => m.type === 'ready', 60_000);
  return {
    url: `http://127.0.0.1:${ready.port as number}`,
    child,
    messages,
    next,
    send: (message) => void child.send(message as never),
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        await exited;
      }
    },
  };
}
