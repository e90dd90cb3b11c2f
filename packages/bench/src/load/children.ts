/**
 * Starts the bench's TypeScript child processes and talks to them over IPC. The child's own file
 * goes through the tsx loader; the Lousho packages it imports are their builds (see built.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assertBuilt } from './built.js';

export interface Child {
  process: ChildProcess;
  /** Sends `message` (if given) and waits for the next message from the child. */
  ask<T>(message?: string, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

export function startChild(file: string, args: string[], extraNodeArgs: string[] = []): Child {
  assertBuilt();
  const child = fork(fileURLToPath(new URL(file, import.meta.url)), args, {
    execArgv: ['--import', import.meta.resolve('tsx'), ...extraNodeArgs],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    ask<T>(message?: string, timeoutMs = 120_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${file}: no answer within ${timeoutMs} ms`)), timeoutMs);
        const onExit = (code: number | null): void => {
          clearTimeout(timer);
          reject(new Error(`${file} exited with code ${code} before answering`));
        };
        child.once('exit', onExit);
        child.once('message', (value) => {
          clearTimeout(timer);
          child.off('exit', onExit);
          resolve(value as T);
        });
        if (message !== undefined) child.send(message);
      });
    },
    async stop(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) {
        if (child.connected) child.disconnect();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
