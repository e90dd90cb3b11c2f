import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpLogger } from '@lousho/core';

const here = dirname(fileURLToPath(import.meta.url));

/** A test server as a stdio config: `node <file> ...args`. */
export function serverCommand(file: string, ...args: string[]) {
  return { command: process.execPath, args: [resolve(here, 'servers', file), ...args] };
}

export const BROKEN_SERVER = resolve(here, 'servers/broken-server.mjs');

/** A logger that keeps what it gets, and can wait for a line. */
export function recordingLogger(): McpLogger & { lines: string[]; waitFor(pattern: RegExp, timeoutMs?: number): Promise<string> } {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  return {
    lines,
    warn(message) {
      lines.push(message);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(message)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    },
    waitFor(pattern, timeoutMs = 10_000) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error(`No log line matched ${pattern} within ${timeoutMs} ms. Lines: ${lines.join(' | ')}`)), timeoutMs);
        waiters.push({
          pattern,
          resolve: (line) => {
            clearTimeout(timer);
            resolvePromise(line);
          },
        });
      });
    },
  };
}

/** True while a process with this id exists. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitUntil(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('Condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The error a promise rejects with (a test failure when it resolves). */
export function failureOf(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  return promise.then(
    () => {
      throw new Error('Expected a rejection');
    },
    (error: unknown) => error as Error & Record<string, unknown>,
  );
}
