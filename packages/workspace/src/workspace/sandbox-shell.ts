import { ERROR_CODES, SDKError, type SandboxAdapter } from '@lousho/core';
import type { ExecOptions, ExecResult, ShellProvider } from './types.js';

/**
 * A `ShellProvider` whose commands run in a `SandboxAdapter` (`sandbox.exec`): give it to
 * `createShellTool()` so the agent's shell runs in the sandbox. A coding agent's shell:
 * `new SandboxShell(new BubblewrapSandbox({ root }))`.
 */
export class SandboxShell implements ShellProvider {
  readonly #sandbox: SandboxAdapter;
  readonly #defaults: ExecOptions;

  constructor(sandbox: SandboxAdapter, defaults: Omit<ExecOptions, 'signal' | 'stdin'> = {}) {
    if (!sandbox || typeof sandbox.exec !== 'function') {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `SandboxShell needs a sandbox that can run commands (exec); ${sandbox?.name ? `'${sandbox.name}'` : 'this one'} cannot.`, {
        hint: 'Use BubblewrapSandbox (commands confined to a workspace root, Linux), SubprocessSandbox, or an adapter that implements exec(command, options).',
      });
    }
    this.#sandbox = sandbox;
    this.#defaults = defaults;
  }

  /** Runs one command line in the sandbox. */
  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const env = this.#defaults.env || options.env ? { ...this.#defaults.env, ...options.env } : undefined;
    return this.#sandbox.exec!(command, { ...this.#defaults, ...options, ...(env ? { env } : {}) });
  }
}
