// The slices of Node's built-in modules the workspace and sandboxes use, typed here so the root entry
// type-checks without @types/node (a browser app's tsconfig has no Node types). Node's own modules
// satisfy them; the tests check that against the real types.

export interface NodeStats {
  size: number;
  mode: number;
  mtimeMs: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

export interface NodeDirent {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

export interface NodeFileHandle {
  stat(): Promise<NodeStats>;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  writeFile(data: string | Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export interface NodeFs {
  constants: { O_RDONLY: number; O_WRONLY: number; O_CREAT: number; O_TRUNC: number; O_NOFOLLOW: number; O_NONBLOCK: number; O_EXCL: number };
  promises: {
    realpath(path: string): Promise<string>;
    stat(path: string): Promise<NodeStats>;
    lstat(path: string): Promise<NodeStats>;
    open(path: string, flags: number, mode?: number): Promise<NodeFileHandle>;
    mkdir(path: string, options: { recursive: true }): Promise<unknown>;
    readdir(path: string, options: { withFileTypes: true }): Promise<NodeDirent[]>;
    readdir(path: string): Promise<string[]>;
    readFile(path: string, encoding: 'latin1' | 'utf8'): Promise<string>;
    writeFile(path: string, data: string): Promise<void>;
    rename(from: string, to: string): Promise<void>;
    unlink(path: string): Promise<void>;
    rmdir(path: string): Promise<void>;
    access(path: string, mode?: number): Promise<void>;
    readlink(path: string): Promise<string>;
    mkdtemp(prefix: string): Promise<string>;
    rm(path: string, options: { recursive: true; force: true }): Promise<void>;
  };
}

export interface NodePath {
  join(...parts: string[]): string;
  dirname(path: string): string;
  relative(from: string, to: string): string;
  basename(path: string): string;
  resolve(...parts: string[]): string;
}

interface NodeReadable {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  destroy(): unknown;
}

export interface NodeChildProcess {
  readonly pid?: number | undefined;
  readonly stdin: { on(event: 'error', listener: (error: unknown) => void): unknown; end(data: string): unknown } | null;
  readonly stdout: NodeReadable | null;
  readonly stderr: NodeReadable | null;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number | null, signal: string | null) => void): unknown;
  once(event: 'close', listener: () => void): unknown;
}

export interface NodeChildProcessModule {
  spawn(
    command: string,
    args: readonly string[],
    options: { cwd: string; env: Record<string, string>; detached: boolean; stdio: ['pipe' | 'ignore', 'pipe', 'pipe']; windowsHide: boolean },
  ): NodeChildProcess;
}

export interface NodeProcess {
  env?: Record<string, string | undefined>;
  cwd(): string;
  kill(pid: number, signal: string): unknown;
  getuid?: () => number;
  execPath?: string;
  getBuiltinModule?: (id: string) => unknown;
}

/** Node's `process`, where there is one. */
export const nodeProcess = (): NodeProcess | undefined => (globalThis as { process?: NodeProcess }).process;
