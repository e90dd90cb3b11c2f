// What core knows of a sandbox: the adapter a `requiresSandbox` tool runs through, and how one
// command runs in it. The sandboxes themselves (NoopSandbox, SubprocessSandbox, BubblewrapSandbox)
// and the workspace providers live in @lousho/workspace.

/** How one command runs. */
export interface ExecOptions {
  /** Directory to run in, relative to the workspace root (default: the root). */
  cwd?: string;
  /** Extra environment variables (added to the provider's minimal environment). */
  env?: Record<string, string>;
  /** Kill the command (and everything it started) after this long. */
  timeoutMs?: number;
  /** Keep at most this many bytes of each of stdout and stderr (the start and the end; the middle is cut). */
  maxOutputBytes?: number;
  /** Aborting kills the command and everything it started. */
  signal?: AbortSignal;
  /** Text written to the command's standard input. */
  stdin?: string;
}

/** What one command did. */
export interface ExecResult {
  /** The exit code, or null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it (`SIGKILL` after a timeout or an abort). */
  signal?: string;
  stdout: string;
  stderr: string;
  /** It ran past `timeoutMs` and was killed. */
  timedOut: boolean;
  /** Output beyond `maxOutputBytes` was cut. */
  truncated: boolean;
  durationMs: number;
}

/**
 * Where `requiresSandbox` tools run. A tool's `sandboxExecute` receives the sandbox and does its
 * work through `exec`, which runs a command inside the sandbox (what `SandboxShell` uses too).
 * `run(fn)`, when an adapter offers it, runs the whole `sandboxExecute` under the adapter; only
 * `NoopSandbox` does (in this process, on purpose). An adapter with neither cannot run a sandboxed
 * tool, which is then refused (`SandboxRequiredError`). See docs/workspace.md.
 */
export interface SandboxAdapter {
  /** A name for messages (`'subprocess'`, `'bubblewrap'`, …). */
  readonly name?: string;
  /** Runs `fn` (a tool's `sandboxExecute`) under the adapter. Offered only where that is what it says. */
  run?<T>(fn: () => Promise<T> | T): Promise<T>;
  /** Runs a command line (`/bin/sh -c`), or an argv without a shell, inside the sandbox. */
  exec?(command: string | readonly string[], options?: ExecOptions): Promise<ExecResult>;
  /** Releases what the sandbox holds and kills anything still running in it. */
  dispose?(): Promise<void>;
}
