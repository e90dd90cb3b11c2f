// Copied from apps/e2e/test/demo-server-process.ts (the React demo's browser tests), so the two suites stay independent.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { DEMO_SERVER_DIR } from './paths.js';

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

/**
 * Starts the demo server as a child process on a free port of 127.0.0.1 (PORT=0; the server prints
 * the address it got) and resolves once it answers. Always the offline demo model.
 */
export async function startDemoServer(): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@lousho/source', 'src/main.ts'], {
    cwd: DEMO_SERVER_DIR,
    // A fresh SQLite data folder per run, so sessions of earlier runs never leak into this one.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOUSHO_MODEL: '', NODE_ENV: 'production', DEMO_DATA_DIR: mkdtempSync(join(tmpdir(), 'lousho-vue-e2e-data-')) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The demo server did not start within ${START_TIMEOUT_MS / 1000} s.`)), START_TIMEOUT_MS);
      const onData = (): void => {
        const match = /running at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
        if (!match?.[1]) return;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve(match[1]);
      };
      child.stdout.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`The demo server exited (code ${code}) before it was ready.`));
      });
    });
    const info = await fetch(new URL('/api/info', url));
    if (!info.ok) throw new Error(`GET /api/info answered ${info.status}.`);
    return { url, stop: () => stopProcess(child) };
  } catch (error) {
    await stopProcess(child);
    throw new Error(`${(error as Error).message}\nIts output:\n${output}`);
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
