import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface StartedProcess {
  /** What matched `readyWhen` in the output. */
  ready: RegExpExecArray;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** A graceful stop (SIGTERM, SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** `kill -9`: no shutdown code runs, as in a crash. Resolves with the signal that ended the process. */
  kill(): Promise<NodeJS.Signals | null>;
}

export interface StartProcessOptions {
  /** Named in errors: "The demo server did not start ...". */
  name: string;
  /** Arguments to Node (the same binary as the tests). */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Printed once the process serves requests. */
  readyWhen: RegExp;
  timeoutMs?: number;
}

/** Starts a Node process and resolves once it prints `readyWhen`; on failure it is stopped and the error carries its output. */
export async function startProcess(options: StartProcessOptions): Promise<StartedProcess> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const child = spawn(process.execPath, options.args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  try {
    const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${options.name} did not start within ${timeoutMs / 1000} s.`)), timeoutMs);
      const onData = (): void => {
        const match = options.readyWhen.exec(output);
        if (!match) return;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        resolve(match);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${options.name} exited (code ${code}) before it was ready.`));
      });
    });
    return { ready, output: () => output, stop: () => stopProcess(child), kill: () => killProcess(child) };
  } catch (error) {
    await stopProcess(child);
    throw new Error(`${(error as Error).message}\nIts output:\n${output}`);
  }
}

/** Stops a started process and rethrows `error` with its output, for a check that failed after the start. */
export async function failStarted(started: StartedProcess, error: unknown): Promise<never> {
  await started.stop();
  throw new Error(`${(error as Error).message}\nIts output:\n${started.output()}`);
}

/** A free port of 127.0.0.1 (for a server that must know its address before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('The system gave no free port.'))));
    });
  });
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
