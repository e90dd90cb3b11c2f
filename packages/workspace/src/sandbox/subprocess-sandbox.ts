import { ERROR_CODES, SDKError, type SandboxAdapter } from '@lousho/core';
import { nodeBuiltin } from '../runtime/node-builtins.js';
import { nodeProcess, type NodePath } from '../runtime/node-types.js';
import type { ExecOptions, ExecResult } from '../workspace/types.js';
import { minimalEnv, newRunTag, RUN_TAG_VARIABLE, runProcess, type RunningProcess } from './run-process.js';

/** Options of `new SubprocessSandbox()`. */
export interface SubprocessSandboxOptions {
  /** Directory commands start in (absolute; default: the process's working directory). */
  cwd?: string;
  /** Variables every command gets (on top of a minimal `PATH`, `HOME`, `LANG`). */
  env?: Record<string, string>;
  /** Host variables passed through by name (default `['PATH']`): nothing else of the host's environment is. */
  inheritEnv?: readonly string[];
  /** Default time limit of a command (default 60,000 ms). */
  timeoutMs?: number;
  /** Default cap on each of stdout and stderr (default 1 MiB). */
  maxOutputBytes?: number;
  /** The shell for command lines (default `/bin/sh`). */
  shell?: string;
  /** After SIGTERM, how long a command's process group has before SIGKILL (default 1000 ms). */
  killGraceMs?: number;
}

/**
 * Runs commands in child processes: each in a process group of its own, with a time limit, an
 * output cap and a minimal environment (the host's variables are not inherited). When a command
 * ends, times out, is aborted or the sandbox is disposed, its group is killed, and so is every
 * process that still carries the command's `LOUSHO_SANDBOX_RUN` tag in its environment (on Linux),
 * which catches what left the group (`setsid`, a double fork, `nohup`).
 *
 * It isolates nothing else: commands read and write every file this process can, may read other
 * processes' environments through /proc (this one's included), reach the network, and a process
 * that clears its environment and leaves the group escapes the bookkeeping. Use
 * `BubblewrapSandbox` to contain untrusted commands (docs/workspace.md). It offers no `run(fn)`:
 * a tool's `sandboxExecute` runs in your process and does its work through `exec`.
 * Node only (loaded through `process.getBuiltinModule`).
 */
export class SubprocessSandbox implements SandboxAdapter {
  readonly name = 'subprocess';
  readonly #options: SubprocessSandboxOptions;
  readonly #running = new Set<RunningProcess>();

  constructor(options: SubprocessSandboxOptions = {}) {
    for (const key of ['timeoutMs', 'maxOutputBytes', 'killGraceMs'] as const) {
      const value = options[key];
      if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
        throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `SubprocessSandbox: ${key} must be a positive integer, got ${JSON.stringify(value)}.`);
      }
    }
    if (options.cwd !== undefined && !options.cwd.startsWith('/')) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `SubprocessSandbox: cwd must be an absolute path, got ${JSON.stringify(options.cwd)}.`);
    }
    this.#options = options;
  }

  /** Runs a command (a shell line, or an argument list run without a shell) in a child process. */
  exec(command: string | readonly string[], options: ExecOptions = {}): Promise<ExecResult> {
    const o = this.#options;
    if (typeof command === 'string' ? command.length === 0 : command.length === 0 || command.some((a) => typeof a !== 'string')) {
      return Promise.reject(new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, 'exec() needs a command line (a non-empty string) or an argv (a non-empty array of strings).'));
    }
    const path = nodeBuiltin<NodePath>('node:path', 'SubprocessSandbox');
    const base = o.cwd ?? nodeProcess()!.cwd();
    const cwd = options.cwd ? path.resolve(base, options.cwd) : base;
    const tag = newRunTag();
    return runProcess(
      {
        argv: typeof command === 'string' ? [o.shell ?? '/bin/sh', '-c', command] : command,
        cwd,
        env: { ...minimalEnv(o.inheritEnv ?? ['PATH'], cwd, { ...o.env, ...options.env }), [RUN_TAG_VARIABLE]: tag },
        tag,
        timeoutMs: options.timeoutMs ?? o.timeoutMs ?? 60_000,
        maxOutputBytes: options.maxOutputBytes ?? o.maxOutputBytes ?? 1024 * 1024,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
        ...(o.killGraceMs !== undefined ? { killGraceMs: o.killGraceMs } : {}),
      },
      'SubprocessSandbox',
      this.#running,
    );
  }

  /** Kills every command still running, with everything it started. */
  async dispose(): Promise<void> {
    for (const p of this.#running) p.kill();
    this.#running.clear();
  }
}
