import { spawn, type ChildProcess } from 'node:child_process';
import { DEMO_SERVER_DIR } from './paths.js';

export interface RunningServer {
  url: string;
  /** The port it listens on (to start a replacement on the same address). */
  port: number;
  /** A graceful stop (SIGTERM, SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** `kill -9`: no shutdown code runs, as in a crash. Resolves with the signal that ended the process. */
  kill(): Promise<NodeJS.Signals | null>;
}

export interface DemoServerOptions {
  /** 0 (the default) takes a free port. */
  port?: number;
  /** Where the server keeps its SQLite file (DEMO_DATA_DIR); default: the demo server's own data folder. */
  dataDir?: string;
}

const START_TIMEOUT_MS = 60_000;

/**
 * Starts the demo server as a child process on 127.0.0.1 (by default on a free port: PORT=0, and the
 * server prints the address it got) and resolves once it answers. Always the offline demo model.
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<RunningServer> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(options.port ?? 0), HOST: '127.0.0.1', LOUSHO_MODEL: '', NODE_ENV: 'production' };
  if (options.dataDir !== undefined) env['DEMO_DATA_DIR'] = options.dataDir;
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@lousho/source', 'src/main.ts'], {
    cwd: DEMO_SERVER_DIR,
    env,
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
    return { url, port: Number(new URL(url).port), stop: () => stopProcess(child), kill: () => killProcess(child) };
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

function killProcess(child: ChildProcess): Promise<NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => {
    child.once('exit', (_code, signal) => resolve(signal));
    child.kill('SIGKILL');
  });
}
