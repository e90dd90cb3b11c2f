import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { APP_DIR } from './paths.js';

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

/** A free port of 127.0.0.1 (adapter-node needs the port up front: ORIGIN names it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts the built app as a child process, exactly as the README says (`node build`), on a free
 * port of 127.0.0.1, always with the offline demo model; resolves once a page is served.
 */
export async function startApp(): Promise<RunningApp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['build'], {
    cwd: APP_DIR,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ORIGIN: url, LOUSHO_MODEL: '', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The app did not start within ${START_TIMEOUT_MS / 1000} s.`)), START_TIMEOUT_MS);
      const onData = (): void => {
        if (!output.includes('Listening on')) return;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve();
      };
      child.stdout.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`The app exited (code ${code}) before it was ready.`));
      });
    });
    const page = await fetch(url);
    if (!page.ok) throw new Error(`GET / answered ${page.status}.`);
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
