import { ERROR_CODES, SDKError } from '@lousho/core';
import { nodeBuiltin } from './runtime/node-builtins.js';
import type { NodeFileHandle, NodeDirent, NodeFs, NodePath, NodeStats } from './runtime/node-types.js';
import { BubblewrapSandbox } from './sandbox/bubblewrap-sandbox.js';
import { minimalEnv, newRunTag, RUN_TAG_VARIABLE, runProcess } from './sandbox/run-process.js';
import { notFound, outsideRoot, unsuitable, WorkspaceError } from './workspace/errors.js';
import { confinePath, displayPath } from './workspace/paths.js';
import type { ExecOptions, ExecResult, FsEntry, FsEntryType, FsProvider, FsStat, ShellProvider } from './workspace/types.js';

type Fs = NodeFs;
type Path = NodePath;

/** Options of `new NodeWorkspace()`. */
export interface NodeWorkspaceOptions {
  /** The directory the workspace is confined to (absolute; it must exist). */
  root: string;
  /** Variables every command gets (on top of a minimal `PATH`, `HOME`, `LANG`). */
  env?: Record<string, string>;
  /** Host variables passed through to commands by name (default `['PATH']`). */
  inheritEnv?: readonly string[];
  /** The shell for command lines (default `/bin/sh`). */
  shell?: string;
  /** Default time limit of a command (default 120,000 ms). */
  timeoutMs?: number;
  /** Default cap on each of stdout and stderr (default 1 MiB). */
  maxOutputBytes?: number;
  /**
   * Commands run confined to the root in a `BubblewrapSandbox` (default true; Linux with
   * bubblewrap, else `exec` fails with `LOUSHO_SANDBOX_UNAVAILABLE`). `false` runs them as plain
   * child processes that see the whole machine: only for commands you trust.
   */
  confineCommands?: boolean;
}

/**
 * A real directory as a workspace: files (`FsProvider`) and commands (`ShellProvider`). Every path
 * is confined to `root`: `..`, absolute paths elsewhere and symlinks that lead out are refused
 * (`LOUSHO_WORKSPACE_PATH_OUTSIDE`). Writes are atomic (a temporary file in the same directory,
 * then a rename) and only ever replace regular files. Commands run in the root (or a directory
 * inside it) with a minimal environment, confined to the root by a `BubblewrapSandbox` (see
 * `confineCommands`); a timeout or an abort kills everything they started.
 * Node only (loaded through `process.getBuiltinModule`).
 */
export class NodeWorkspace implements FsProvider, ShellProvider {
  /** The root as given. */
  readonly root: string;
  readonly #options: NodeWorkspaceOptions;
  #realRoot: string | undefined;
  #sandbox: BubblewrapSandbox | undefined;

  constructor(options: NodeWorkspaceOptions) {
    if (typeof options?.root !== 'string' || !options.root.startsWith('/')) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `NodeWorkspace needs an absolute root directory, got ${JSON.stringify(options?.root)}.`, {
        hint: "e.g. new NodeWorkspace({ root: path.resolve('project') })",
      });
    }
    this.root = options.root.replace(/(.)\/+$/, '$1');
    this.#options = options;
  }

  #fs(): Fs {
    return nodeBuiltin<Fs>('node:fs', 'NodeWorkspace');
  }

  #path(): Path {
    return nodeBuiltin<Path>('node:path', 'NodeWorkspace');
  }

  /** The root with symlinks resolved (checked once: it must be a directory). */
  async #root(): Promise<string> {
    if (this.#realRoot) return this.#realRoot;
    const fs = this.#fs();
    let real: string;
    try {
      real = await fs.promises.realpath(this.root);
    } catch (error) {
      throw new WorkspaceError(ERROR_CODES.LOUSHO_WORKSPACE_NOT_FOUND, `The workspace root '${this.root}' does not exist.`, { cause: error, hint: 'Create the directory first.' });
    }
    if (!(await fs.promises.stat(real)).isDirectory()) throw new WorkspaceError(ERROR_CODES.LOUSHO_WORKSPACE_NOT_FOUND, `The workspace root '${this.root}' is not a directory.`);
    return (this.#realRoot = real);
  }

  #inside(realRoot: string, real: string): boolean {
    return real === realRoot || real.startsWith(realRoot.endsWith('/') ? realRoot : `${realRoot}/`);
  }

  /**
   * The real path of a workspace path, checked to be inside the root once every symlink on the way
   * is resolved. `missingOk`: the path may not exist yet (a file about to be written); then its
   * deepest existing ancestor is what is checked.
   */
  async #resolve(path: string, missingOk = false): Promise<{ rel: string; real: string; exists: boolean }> {
    const realRoot = await this.#root();
    // An absolute path is accepted inside the root as given or as resolved.
    const rel = path.startsWith('/') && (path === realRoot || path.startsWith(`${realRoot}/`)) ? confinePath(path, realRoot) : confinePath(path, this.root);
    const fs = this.#fs();
    const p = this.#path();
    const absolute = rel === '' ? realRoot : p.join(realRoot, rel);
    try {
      const real = await fs.promises.realpath(absolute);
      if (!this.#inside(realRoot, real)) throw outsideRoot(path, 'a symlink on the way leads outside the workspace root');
      return { rel, real, exists: true };
    } catch (error) {
      if (error instanceof WorkspaceError) throw error;
      if ((error as { code?: string }).code !== 'ENOENT' && (error as { code?: string }).code !== 'ENOTDIR') throw ioError(path, error);
    }
    // A link whose target is missing must not be written through: it could point anywhere.
    const link = await fs.promises.lstat(absolute).catch(() => undefined);
    if (link?.isSymbolicLink()) throw outsideRoot(path, 'it is a symlink to a path that does not exist');
    if (!missingOk) throw notFound(displayPath(rel));
    let ancestor = p.dirname(absolute);
    for (;;) {
      const real = await fs.promises.realpath(ancestor).catch(() => undefined);
      if (real !== undefined) {
        if (!this.#inside(realRoot, real)) throw outsideRoot(path, 'a symlink on the way leads outside the workspace root');
        return { rel, real: p.join(real, p.relative(ancestor, absolute)), exists: false };
      }
      const linked = await fs.promises.lstat(ancestor).catch(() => undefined);
      if (linked?.isSymbolicLink()) throw outsideRoot(path, 'a symlink on the way points to a path that does not exist');
      ancestor = p.dirname(ancestor);
    }
  }

  async stat(path: string): Promise<FsStat | undefined> {
    let resolved;
    try {
      resolved = await this.#resolve(path);
    } catch (error) {
      if (error instanceof WorkspaceError && error.code === ERROR_CODES.LOUSHO_WORKSPACE_NOT_FOUND) return undefined;
      throw error;
    }
    const s = await this.#fs().promises.stat(resolved.real);
    return { type: typeOf(s), size: s.isFile() ? s.size : 0, mtimeMs: s.mtimeMs };
  }

  async readFile(path: string, options: { maxBytes?: number } = {}): Promise<Uint8Array> {
    const { rel, real } = await this.#resolve(path);
    const fs = this.#fs();
    let handle: NodeFileHandle;
    try {
      // O_NOFOLLOW: if the file was swapped for a symlink since it was checked, the open fails.
      handle = await fs.promises.open(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch (error) {
      throw ioError(path, error);
    }
    try {
      const s = await handle.stat();
      if (s.isDirectory()) throw unsuitable(rel, `'${displayPath(rel)}' is a directory.`);
      if (!s.isFile()) throw unsuitable(rel, `'${rel}' is not a regular file.`);
      const length = Math.min(s.size, options.maxBytes ?? s.size);
      const buffer = new Uint8Array(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await handle.read(buffer, read, length - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return buffer.subarray(0, read);
    } finally {
      await handle.close();
    }
  }

  /**
   * Replaces or creates a file atomically: the data goes to a temporary file in the same directory,
   * which is then renamed over the target, so a reader sees the old content or the new, never a
   * part. Only a regular file is replaced (a FIFO, a device or a socket is refused); its mode is kept.
   */
  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const { rel, real, exists } = await this.#resolve(path, true);
    if (rel === '') throw unsuitable(rel, 'The workspace root is a directory.');
    const fs = this.#fs();
    const p = this.#path();
    let mode = 0o644;
    if (exists) {
      const s = await fs.promises.lstat(real).catch((error: unknown) => {
        throw ioError(path, error);
      });
      if (s.isDirectory()) throw unsuitable(rel, `'${displayPath(rel)}' is a directory.`);
      if (!s.isFile()) throw unsuitable(rel, `'${displayPath(rel)}' is not a regular file; only regular files are written.`);
      mode = s.mode & 0o777;
    }
    const dir = p.dirname(real);
    const temp = `${dir}/.${p.basename(real)}.${globalThis.crypto.randomUUID().slice(0, 8)}.tmp`;
    try {
      if (!exists) await fs.promises.mkdir(dir, { recursive: true });
      // O_EXCL | O_NOFOLLOW: the temporary name is new, never something planted there.
      const handle = await fs.promises.open(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, mode);
      try {
        await handle.writeFile(data);
      } finally {
        await handle.close();
      }
      await fs.promises.rename(temp, real);
    } catch (error) {
      await fs.promises.unlink(temp).catch(() => {});
      throw ioError(path, error);
    }
  }

  async readDir(path: string): Promise<FsEntry[]> {
    const { rel, real } = await this.#resolve(path);
    const fs = this.#fs();
    let dirents: NodeDirent[];
    try {
      dirents = await fs.promises.readdir(real, { withFileTypes: true });
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOTDIR') throw unsuitable(rel, `'${displayPath(rel)}' is not a directory.`);
      throw ioError(path, error);
    }
    const entries = await Promise.all(
      dirents.map(async (d): Promise<FsEntry> => {
        const type: FsEntryType = d.isFile() ? 'file' : d.isDirectory() ? 'directory' : d.isSymbolicLink() ? 'symlink' : 'other';
        const size = type === 'file' ? ((await fs.promises.lstat(`${real}/${d.name}`).catch(() => undefined))?.size ?? 0) : 0;
        return { name: d.name, type, size };
      }),
    );
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Runs one command line in a directory of the workspace (its root unless `cwd` names another). */
  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (typeof command !== 'string' || command.length === 0) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, 'exec() needs a command line (a non-empty string).');
    const realRoot = await this.#root();
    const { rel, real } = await this.#resolve(options.cwd ?? '.');
    const s = await this.#fs().promises.stat(real);
    if (!s.isDirectory()) throw unsuitable(rel, `'${displayPath(rel)}' is not a directory; commands run in a directory.`);
    const o = this.#options;
    if (o.confineCommands !== false) {
      this.#sandbox ??= new BubblewrapSandbox({
        root: realRoot,
        ...(o.env ? { env: o.env } : {}),
        ...(o.inheritEnv ? { inheritEnv: o.inheritEnv } : {}),
        ...(o.shell ? { shell: o.shell } : {}),
        timeoutMs: o.timeoutMs ?? 120_000,
        ...(o.maxOutputBytes ? { maxOutputBytes: o.maxOutputBytes } : {}),
      });
      return this.#sandbox.exec(command, { ...options, cwd: real });
    }
    const tag = newRunTag();
    return runProcess(
      {
        argv: [o.shell ?? '/bin/sh', '-c', command],
        cwd: real,
        env: { ...minimalEnv(o.inheritEnv ?? ['PATH'], realRoot, { ...o.env, ...options.env }), [RUN_TAG_VARIABLE]: tag },
        tag,
        timeoutMs: options.timeoutMs ?? o.timeoutMs ?? 120_000,
        maxOutputBytes: options.maxOutputBytes ?? o.maxOutputBytes ?? 1024 * 1024,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
      },
      'NodeWorkspace',
    );
  }
}

function typeOf(s: NodeStats): FsEntryType {
  return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : s.isSymbolicLink() ? 'symlink' : 'other';
}

function ioError(path: string, error: unknown): WorkspaceError {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ENOENT') return notFound(path);
  if (code === 'ELOOP') return outsideRoot(path, 'it is a symlink, which the workspace does not follow here');
  if (code === 'EISDIR') return unsuitable(path, `'${path}' is a directory.`);
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  return new WorkspaceError(ERROR_CODES.LOUSHO_WORKSPACE_IO, `Could not access '${path}' (${detail}).`, { path, cause: error });
}
