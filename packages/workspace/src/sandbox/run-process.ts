import { ERROR_CODES } from '@lousho/core';
import { nodeBuiltin, hostEnv } from '../runtime/node-builtins.js';
import { nodeProcess, type NodeChildProcess, type NodeChildProcessModule, type NodeFs } from '../runtime/node-types.js';
import { WorkspaceError } from '../workspace/errors.js';
import { OutputBuffer } from '../workspace/output-buffer.js';
import type { ExecResult } from '../workspace/types.js';

export interface ProcessSpec {
  argv: readonly string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  stdin?: string;
  /** After SIGTERM, how long the process group has before SIGKILL (default 1000 ms). */
  killGraceMs?: number;
  /**
   * Also kill, when the command ends (or is stopped), every process whose environment carries
   * `tag` (see `tagProcesses`): what left the process group (`setsid`, a double fork) still has it.
   */
  tag?: string;
  /** Runs once the command is over and everything it started is gone (a cgroup to remove). */
  cleanup?: () => Promise<void> | void;
}

/** The variable `runProcess` recognises a command's processes by, when given a `tag`. */
export const RUN_TAG_VARIABLE = 'LOUSHO_SANDBOX_RUN';

/** Variables every command gets, so tools behave predictably without the host's environment. */
const BASE_ENV = { LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TERM: 'dumb', NO_COLOR: '1' };
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * The environment of a sandboxed command: a minimal base, the host variables named in `inherit`
 * (only `PATH` by default, so no secret of the host leaks in), then `env`.
 */
export function minimalEnv(inherit: readonly string[], home: string, env: Record<string, string> = {}): Record<string, string> {
  const host = hostEnv();
  const out: Record<string, string> = { ...BASE_ENV, HOME: home, PATH: DEFAULT_PATH };
  for (const name of inherit) {
    const value = host[name];
    if (value !== undefined) out[name] = value;
  }
  return { ...out, ...env };
}

/** A fresh tag for one command's processes. */
export function newRunTag(): string {
  return globalThis.crypto.randomUUID();
}

/** A running process group, so a sandbox can kill everything on dispose. */
export interface RunningProcess {
  kill(): void;
}

/**
 * Runs `argv` in a process group of its own and waits for it. A timeout or an abort kills the whole
 * group (SIGTERM, then SIGKILL after a grace period); so does the main process ending, so nothing
 * it started in the background outlives it. Output is capped. An abort rejects with the signal's
 * reason once the group is gone.
 */
export function runProcess(spec: ProcessSpec, who: string, track?: Set<RunningProcess>): Promise<ExecResult> {
  const cp = nodeBuiltin<NodeChildProcessModule>('node:child_process', who);
  const started = Date.now();
  if (spec.signal?.aborted) return Promise.reject(abortReason(spec.signal));
  return new Promise<ExecResult>((resolve, reject) => {
    let child: NodeChildProcess;
    try {
      child = cp.spawn(spec.argv[0]!, spec.argv.slice(1), {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: [spec.stdin !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      reject(spawnError(spec, error));
      return;
    }
    const stdout = new OutputBuffer(spec.maxOutputBytes);
    const stderr = new OutputBuffer(spec.maxOutputBytes);
    child.stdout!.on('data', (chunk: Uint8Array) => stdout.push(chunk));
    child.stderr!.on('data', (chunk: Uint8Array) => stderr.push(chunk));
    if (spec.stdin !== undefined) {
      child.stdin!.on('error', () => {});
      child.stdin!.end(spec.stdin);
    }

    let timedOut = false;
    let aborted = false;
    let exited = false;
    let settled = false;
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    const killGroup = (signal: 'SIGTERM' | 'SIGKILL') => {
      if (child.pid === undefined) return;
      try {
        // A negative pid is the process group: the command and everything it started.
        nodeProcess()!.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const stop = () => {
      killGroup('SIGTERM');
      killTimer ??= setTimeout(killAll, spec.killGraceMs ?? 1000);
    };
    const killAll = () => {
      killGroup('SIGKILL');
      if (spec.tag) void killTagged(spec.tag);
    };
    const handle: RunningProcess = { kill: killAll };
    track?.add(handle);

    const timer = spec.timeoutMs !== undefined ? setTimeout(() => ((timedOut = true), stop()), spec.timeoutMs) : undefined;
    const onAbort = () => {
      aborted = true;
      stop();
    };
    spec.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (result: ExecResult | undefined, error?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      spec.signal?.removeEventListener('abort', onAbort);
      track?.delete(handle);
      // Nothing the command started may outlive it: what left its group is found by its tag.
      const reaped = spec.tag ? killTagged(spec.tag) : Promise.resolve();
      void reaped
        .then(() => spec.cleanup?.())
        .catch(() => {})
        .then(() => {
          if (error !== undefined) reject(error);
          else if (aborted) reject(abortReason(spec.signal!));
          else resolve(result!);
        });
    };

    child.on('error', (error) => {
      if (!exited) finish(undefined, spawnError(spec, error));
    });
    child.on('exit', (code, signal) => {
      exited = true;
      // The main process is done: whatever it left running in its group goes with it.
      killGroup('SIGKILL');
      if (spec.tag) void killTagged(spec.tag);
      const result = (): ExecResult => ({
        exitCode: code,
        ...(signal ? { signal } : {}),
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: Date.now() - started,
      });
      // Output still in the pipes arrives before 'close'. A process that left the group (setsid)
      // could hold them open forever: stop waiting after a moment.
      const late = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(result());
      }, 500);
      child.once('close', () => {
        clearTimeout(late);
        finish(result());
      });
    });
  });
}

/**
 * Kills every process whose environment holds `LOUSHO_SANDBOX_RUN=<tag>` (Linux: read from
 * /proc/<pid>/environ), again until none is left, so one forking while it is killed is caught too.
 * A process that clears its environment is not found: this is bookkeeping, not containment.
 */
export async function killTagged(tag: string): Promise<void> {
  const fs = nodeProcess()?.getBuiltinModule?.('node:fs') as NodeFs | undefined;
  if (!fs) return;
  const needle = `${RUN_TAG_VARIABLE}=${tag}\0`;
  for (let round = 0; round < 10; round++) {
    let names: string[];
    try {
      names = await fs.promises.readdir('/proc');
    } catch {
      return; // not Linux: only the process group is killed
    }
    const found: number[] = [];
    await Promise.all(
      names
        .filter((name) => /^\d+$/.test(name))
        .map(async (name) => {
          const environ = await fs.promises.readFile(`/proc/${name}/environ`, 'latin1').catch(() => '');
          if (environ.startsWith(needle) || environ.includes(`\0${needle}`)) found.push(Number(name));
        }),
    );
    if (found.length === 0) return;
    for (const pid of found) {
      try {
        nodeProcess()!.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

function spawnError(spec: ProcessSpec, error: unknown): WorkspaceError {
  const code = (error as { code?: string } | null)?.code;
  const detail = code === 'ENOENT' ? `'${spec.argv[0]}' or the directory '${spec.cwd}' does not exist` : error instanceof Error ? error.message : String(error);
  return new WorkspaceError(ERROR_CODES.LOUSHO_WORKSPACE_IO, `Could not start the command: ${detail}.`, { cause: error });
}
