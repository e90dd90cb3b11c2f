import { ERROR_CODES, SDKError } from '@lousho/core';
import { notFound, unsuitable } from './errors.js';
import { capText } from './output-buffer.js';
import { confinePath, displayPath } from './paths.js';
import { decodeText, encodeText } from './text.js';
import type { ExecOptions, ExecResult, FsEntry, FsProvider, FsStat, ShellProvider } from './types.js';

/** What a scripted command produces: its stdout as a string, or a result (missing fields: exit code 0, no output). */
export type ScriptedResult = string | Partial<Omit<ExecResult, 'durationMs' | 'truncated'>>;

/** What a scripted command of a `MemoryWorkspace` is given when it runs. */
export interface ScriptedExecContext {
  command: string;
  /** The working directory, relative to the root (`''` for the root). */
  cwd: string;
  env: Record<string, string>;
  /** The workspace, so a script can change files (`npm run format` rewriting a file). */
  workspace: MemoryWorkspace;
  signal?: AbortSignal;
}

/** A scripted answer of a `MemoryWorkspace` to a command: a fixed result, or a function of the call. */
export type ScriptedCommand = ScriptedResult | ((ctx: ScriptedExecContext) => ScriptedResult | Promise<ScriptedResult>);

/** Options of `new MemoryWorkspace()`. */
export interface MemoryWorkspaceOptions {
  /** The initial files: path → text or bytes. Directories are implied by the paths. */
  files?: Record<string, string | Uint8Array>;
  /**
   * How `exec` answers: exact command lines → results, or one function for every command.
   * A command with no script exits with 127 ("not scripted").
   */
  exec?: Record<string, ScriptedCommand> | ((ctx: ScriptedExecContext) => ScriptedResult | Promise<ScriptedResult> | undefined);
  /** The absolute path the workspace pretends to live at (default `/workspace`): absolute paths under it are accepted. */
  root?: string;
}

/**
 * An in-memory workspace for tests, demos and browsers: a file tree (`FsProvider`) and a scripted
 * shell (`ShellProvider`) whose commands answer from `options.exec`. Paths are confined to the
 * root like `NodeWorkspace`'s. `commands` records every command run.
 */
export class MemoryWorkspace implements FsProvider, ShellProvider {
  readonly root: string;
  /** Every command `exec` ran, in order. */
  readonly commands: { command: string; cwd: string }[] = [];
  readonly #files = new Map<string, { data: Uint8Array; mtimeMs: number }>();
  readonly #dirs = new Set<string>(['']);
  readonly #exec: MemoryWorkspaceOptions['exec'];

  constructor(options: MemoryWorkspaceOptions = {}) {
    this.root = (options.root ?? '/workspace').replace(/(.)\/+$/, '$1');
    if (!this.root.startsWith('/')) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `MemoryWorkspace: root must be an absolute path, got ${JSON.stringify(options.root)}.`);
    this.#exec = options.exec;
    for (const [path, data] of Object.entries(options.files ?? {})) this.#put(this.#path(path), typeof data === 'string' ? encodeText(data) : data);
  }

  #path(path: string): string {
    return confinePath(path, this.root);
  }

  #put(rel: string, data: Uint8Array): void {
    if (rel === '' || this.#dirs.has(rel)) throw unsuitable(rel, `'${displayPath(rel)}' is a directory.`);
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (this.#files.has(dir)) throw unsuitable(dir, `'${dir}' is a file, so it cannot hold '${rel}'.`);
      this.#dirs.add(dir);
    }
    this.#files.set(rel, { data: data.slice(), mtimeMs: Date.now() });
  }

  async stat(path: string): Promise<FsStat | undefined> {
    const rel = this.#path(path);
    const file = this.#files.get(rel);
    if (file) return { type: 'file', size: file.data.length, mtimeMs: file.mtimeMs };
    return this.#dirs.has(rel) ? { type: 'directory', size: 0 } : undefined;
  }

  async readFile(path: string, options: { maxBytes?: number } = {}): Promise<Uint8Array> {
    const rel = this.#path(path);
    const file = this.#files.get(rel);
    if (!file) throw this.#dirs.has(rel) ? unsuitable(rel, `'${displayPath(rel)}' is a directory.`) : notFound(displayPath(rel), 'No file');
    return file.data.slice(0, options.maxBytes ?? file.data.length);
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    this.#put(this.#path(path), typeof data === 'string' ? encodeText(data) : data);
  }

  async readDir(path: string): Promise<FsEntry[]> {
    const rel = this.#path(path);
    if (!this.#dirs.has(rel)) throw this.#files.has(rel) ? unsuitable(rel, `'${rel}' is not a directory.`) : notFound(displayPath(rel), 'No directory');
    const prefix = rel === '' ? '' : `${rel}/`;
    const entries = new Map<string, FsEntry>();
    for (const dir of this.#dirs) {
      if (dir.startsWith(prefix) && dir !== rel && !dir.slice(prefix.length).includes('/')) entries.set(dir, { name: dir.slice(prefix.length), type: 'directory', size: 0 });
    }
    for (const [file, { data }] of this.#files) {
      if (file.startsWith(prefix) && !file.slice(prefix.length).includes('/')) entries.set(file, { name: file.slice(prefix.length), type: 'file', size: data.length });
    }
    return [...entries.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** A file's text (for tests and demos). */
  async readText(path: string): Promise<string> {
    return decodeText(await this.readFile(path));
  }

  /** Every file as text, keyed by path (for assertions). */
  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.#files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, { data }]) => [path, decodeText(data)]));
  }

  /** Runs a command by its script (`MemoryWorkspaceOptions`); nothing runs on the host. */
  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (typeof command !== 'string' || command.length === 0) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, 'exec() needs a command line (a non-empty string).');
    const cwd = this.#path(options.cwd ?? '.');
    if (!this.#dirs.has(cwd)) throw notFound(displayPath(cwd), 'No directory');
    options.signal?.throwIfAborted();
    this.commands.push({ command, cwd });
    const started = Date.now();
    const ctx: ScriptedExecContext = { command, cwd, env: { ...options.env }, workspace: this, ...(options.signal ? { signal: options.signal } : {}) };
    const scripted = typeof this.#exec === 'function' ? this.#exec(ctx) : this.#exec?.[command];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const produced = (async () => {
      const value = typeof scripted === 'function' ? await scripted(ctx) : await scripted;
      return value === undefined ? { exitCode: 127, stderr: `sh: ${command}: not scripted in this MemoryWorkspace\n` } : value;
    })();
    const timeout = new Promise<'timeout'>((resolve) => {
      if (options.timeoutMs !== undefined) timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
    });
    const aborted = new Promise<never>((_, reject) => options.signal?.addEventListener('abort', () => reject(options.signal!.reason), { once: true }));
    try {
      const value = await Promise.race([produced, timeout, aborted]);
      const max = options.maxOutputBytes ?? 1024 * 1024;
      if (value === 'timeout') return { exitCode: null, signal: 'SIGKILL', stdout: '', stderr: '', timedOut: true, truncated: false, durationMs: Date.now() - started };
      const result = typeof value === 'string' ? { stdout: value } : value;
      const stdout = capText(result.stdout ?? '', max);
      const stderr = capText(result.stderr ?? '', max);
      return {
        exitCode: result.exitCode === undefined ? 0 : result.exitCode,
        ...(result.signal ? { signal: result.signal } : {}),
        stdout: stdout.text,
        stderr: stderr.text,
        timedOut: result.timedOut ?? false,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: Date.now() - started,
      };
    } finally {
      clearTimeout(timer);
    }
  }
}
