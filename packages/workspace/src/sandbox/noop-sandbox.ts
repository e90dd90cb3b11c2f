import type { SandboxAdapter } from '@lousho/core';

/**
 * No isolation at all: `requiresSandbox` tools run their `sandboxExecute` in this process. For
 * development and tests, where an explicit "run it here" is wanted; it has no `exec`, so it cannot
 * back a `SandboxShell`.
 */
export class NoopSandbox implements SandboxAdapter {
  readonly name = 'noop';

  async run<T>(fn: () => Promise<T> | T): Promise<T> {
    return fn();
  }
}
