/** What a path is. A symlink is reported as such by `readDir` (and never followed by the walkers). */
export type FsEntryType = 'file' | 'directory' | 'symlink' | 'other';

/** What a workspace tells of one path. */
export interface FsStat {
  type: FsEntryType;
  /** Bytes (0 for a directory). */
  size: number;
  mtimeMs?: number;
}

/** One entry of a workspace directory listing. */
export interface FsEntry {
  name: string;
  type: FsEntryType;
  size: number;
}

/**
 * The file system the workspace tools work on. Paths are POSIX, relative to the workspace root
 * (`src/index.ts`); a provider refuses any path that leaves its root with `LOUSHO_WORKSPACE_PATH_OUTSIDE`.
 */
export interface FsProvider {
  /** The absolute directory the paths are relative to, when there is one: the tools accept an absolute path inside it too. */
  readonly root?: string;
  /** Metadata of a path (following a symlink that stays inside the root), or undefined when nothing is there. */
  stat(path: string): Promise<FsStat | undefined>;
  /** The file's bytes from the start, at most `maxBytes` of them (all when omitted). */
  readFile(path: string, options?: { maxBytes?: number }): Promise<Uint8Array>;
  /** Creates or replaces a file, creating its parent directories. */
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** A directory's entries, sorted by name. */
  readDir(path: string): Promise<FsEntry[]>;
}

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

/** Runs shell command lines (`/bin/sh -c`) for the `shell` tool. */
export interface ShellProvider {
  /** Runs one command line and resolves with what it did. */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
}
