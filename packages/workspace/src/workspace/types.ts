import type { ExecOptions, ExecResult } from '@lousho/core';

export type { ExecOptions, ExecResult };

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

/** Runs shell command lines (`/bin/sh -c`) for the `shell` tool. */
export interface ShellProvider {
  /** Runs one command line and resolves with what it did. */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
}
