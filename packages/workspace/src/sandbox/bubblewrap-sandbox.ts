import { ERROR_CODES, SDKError, type SandboxAdapter } from '@lousho/core';
import { nodeBuiltin } from '../runtime/node-builtins.js';
import { nodeProcess, type NodeFs } from '../runtime/node-types.js';
import { outsideRoot, unsuitable, WorkspaceError } from '../workspace/errors.js';
import { confinePath, displayPath } from '../workspace/paths.js';
import type { ExecOptions, ExecResult } from '../workspace/types.js';
import { bwrapArgs, DEFAULT_PROTECTED_PATHS } from './bwrap-args.js';
import { FORWARDER_SCRIPT, startAllowListProxy, type AllowListProxy } from './allow-list-proxy.js';
import { bubblewrapStatus, type BubblewrapStatus } from './bwrap-probe.js';
import { createCommandCgroup, type CommandCgroup } from './cgroup.js';
import { minimalEnv, runProcess, type RunningProcess } from './run-process.js';

/** Kernel limits on each command of a sandbox. Each one asked is enforced, or the command is refused. */
export interface SandboxLimits {
  /** CPU seconds each process may use (RLIMIT_CPU: SIGXCPU, then SIGKILL a second later). */
  cpuSeconds?: number;
  /** Memory of the whole command (a cgroup where one can be made; otherwise RLIMIT_AS, per process). */
  memoryBytes?: number;
  /** Processes and threads of the whole command at once (a cgroup's `pids.max`; RLIMIT_NPROC for a non-root caller). */
  processes?: number;
  /** Largest file a process may write (RLIMIT_FSIZE: the write fails with EFBIG). */
  fileSizeBytes?: number;
}

/**
 * The network of a sandbox: none (only its own loopback), the host's, or an allow list of hosts,
 * reached through an HTTP proxy (`HTTP_PROXY`/`HTTPS_PROXY`) that refuses every other host.
 */
export type SandboxNetwork = 'none' | 'host' | { allow: readonly string[] };

/** Options of `new BubblewrapSandbox()`. */
export interface BubblewrapSandboxOptions {
  /** The workspace: an existing directory (absolute), the only place commands may write, seen at the same path. */
  root: string;
  /** Variables every command gets (on top of a minimal `PATH`, `HOME` (the root), `LANG`). */
  env?: Record<string, string>;
  /**
   * Host variables passed through by name (default none: not even `PATH`, whose folders may be hidden
   * inside, so commands get the system's own `/usr/local/bin:/usr/bin:/bin`). Nothing else of the
   * host's environment is.
   */
  inheritEnv?: readonly string[];
  /** Default time limit of a command (default 60,000 ms). */
  timeoutMs?: number;
  /** Default cap on each of stdout and stderr (default 1 MiB). */
  maxOutputBytes?: number;
  /** The shell for command lines (default `/bin/sh`; it must exist inside: under /usr, /bin or a path you add). */
  shell?: string;
  /** After SIGTERM, how long a command has before SIGKILL (default 1000 ms). */
  killGraceMs?: number;
  /** Default `'none'`: the sandbox has a loopback of its own and nothing else. */
  network?: SandboxNetwork;
  /** CPU, memory, process and file-size limits (none by default). */
  limits?: SandboxLimits;
  /** More host paths (absolute) visible read-only, e.g. a toolchain in `/opt`. */
  readOnlyPaths?: readonly string[];
  /** More host paths (absolute) visible read-write, e.g. a cache directory. */
  writablePaths?: readonly string[];
  /** Paths inside the root kept read-only (default `['.git/hooks', '.git/config']`: what the host runs later). */
  protectedPaths?: readonly string[];
  /** The bubblewrap program (default `/usr/bin/bwrap`, else `bwrap` on the host's PATH). */
  bwrap?: string;
}

const LIMIT_KEYS = ['cpuSeconds', 'memoryBytes', 'processes', 'fileSizeBytes'] as const;

/**
 * Runs commands in a bubblewrap sandbox (Linux): the workspace `root` read-write, the system
 * (/usr and the few /etc files programs need) read-only, and nothing else: the user's home, other
 * projects, /sys and the host's /proc are not there. Each command gets its own user, pid, mount,
 * IPC, UTS and (by default) network namespaces, no capabilities, the minimal environment, and a
 * /proc that shows only its own processes, so the agent's environment (its API keys) cannot be
 * read. When the command ends, times out, is aborted or the sandbox is disposed, its pid namespace
 * goes, and every process in it (`setsid`, double forks, `nohup` included) dies with it.
 *
 * It offers no `run(fn)`: a tool's `sandboxExecute` runs in your process and does its untrusted
 * work through `exec`. Node on Linux with bubblewrap installed; see docs/workspace.md.
 */
export class BubblewrapSandbox implements SandboxAdapter {
  readonly name = 'bubblewrap';
  /** The workspace root as given. */
  readonly root: string;
  readonly #options: BubblewrapSandboxOptions;
  readonly #running = new Set<RunningProcess>();
  #realRoot: Promise<string> | undefined;
  #proxyStarted: Promise<{ dir: string; server: AllowListProxy }> | undefined;

  constructor(options: BubblewrapSandboxOptions) {
    const invalid = (message: string, hint?: string) => new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `BubblewrapSandbox: ${message}`, hint ? { hint } : {});
    if (typeof options?.root !== 'string' || !options.root.startsWith('/')) throw invalid(`root must be an absolute directory, got ${JSON.stringify(options?.root)}.`, "e.g. new BubblewrapSandbox({ root: path.resolve('project') })");
    if (options.root.replace(/\/+$/, '') === '') throw invalid('root cannot be / (the whole machine would be writable).');
    for (const key of ['timeoutMs', 'maxOutputBytes', 'killGraceMs'] as const) positive(options[key], key, invalid);
    for (const key of LIMIT_KEYS) positive(options.limits?.[key], `limits.${key}`, invalid);
    for (const key of ['readOnlyPaths', 'writablePaths'] as const) {
      for (const path of options[key] ?? []) if (typeof path !== 'string' || !path.startsWith('/')) throw invalid(`${key} must hold absolute paths, got ${JSON.stringify(path)}.`);
    }
    for (const rel of options.protectedPaths ?? []) {
      if (typeof rel !== 'string' || rel.startsWith('/') || rel.split('/').includes('..') || rel === '') throw invalid(`protectedPaths must hold paths inside the root, relative to it, got ${JSON.stringify(rel)}.`);
    }
    const network = options.network ?? 'none';
    if (typeof network === 'object' && network !== null) {
      const allow: unknown = network.allow;
      if (!Array.isArray(allow) || allow.length === 0 || allow.some((h) => typeof h !== 'string' || !HOST_RULE.test(h))) {
        throw invalid(`network.allow must be a non-empty list of host names, addresses or *.domain patterns, got ${JSON.stringify(allow)}.`);
      }
    } else if (network !== 'none' && network !== 'host') throw invalid(`network must be 'none', 'host' or { allow: [hosts] }, got ${JSON.stringify(network)}.`);
    this.root = options.root.replace(/(.)\/+$/, '$1');
    this.#options = options;
  }

  /** Whether bubblewrap is installed and can create the sandbox's namespaces here (checked once per program). */
  static async available(options: { bwrap?: string } = {}): Promise<boolean> {
    return (await bubblewrapStatus(options.bwrap)).ok;
  }

  /** Runs a command (a shell line, or an argument list run without a shell) in the sandbox. */
  async exec(command: string | readonly string[], options: ExecOptions = {}): Promise<ExecResult> {
    if (typeof command === 'string' ? command.length === 0 : !Array.isArray(command) || command.length === 0 || command.some((a) => typeof a !== 'string')) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, 'exec() needs a command line (a non-empty string) or an argv (a non-empty array of strings).');
    }
    const fs = nodeBuiltin<NodeFs>('node:fs', 'BubblewrapSandbox');
    const status = await bubblewrapStatus(this.#options.bwrap);
    if (!status.ok) throw unavailable(status);
    const root = await this.#root(fs);
    const cwd = await this.#cwd(fs, root, options.cwd);
    const o = this.#options;
    const proxy = typeof o.network === 'object' ? await this.#proxy(fs, o.network.allow) : undefined;
    const limits = await this.#limits(fs, status);
    let argv: string[] = [
      status.program,
      ...(await bwrapArgs(fs, {
        root,
        cwd,
        readOnlyPaths: o.readOnlyPaths ?? [],
        writablePaths: o.writablePaths ?? [],
        protectedPaths: o.protectedPaths ?? DEFAULT_PROTECTED_PATHS,
        shareNetwork: o.network === 'host',
        disableUserns: status.disableUserns,
      })),
      ...(proxy ? ['--ro-bind', proxy.dir, PROXY_DIR, '--ro-bind', proxy.node, PROXY_NODE] : []),
      '--',
      ...limits.prefix,
      ...(proxy ? ['/bin/sh', '-c', START_FORWARDER, FORWARDER_SCRIPT, `${PROXY_DIR}/proxy.sock`, String(PROXY_PORT)] : []),
      ...(typeof command === 'string' ? [o.shell ?? '/bin/sh', '-c', command] : command),
    ];
    // bubblewrap joins the command's cgroups before it starts: everything inside is counted.
    if (limits.cgroup.procs.length > 0) argv = ['/bin/sh', '-c', JOIN_CGROUPS, 'lousho-sandbox', ...limits.cgroup.procs, '--', ...argv];
    return runProcess(
      {
        argv,
        cwd: root,
        // bubblewrap hands its environment to the command: only the minimal one.
        env: minimalEnv(o.inheritEnv ?? [], root, { TMPDIR: '/tmp', ...(proxy ? PROXY_ENV : {}), ...o.env, ...options.env }),
        timeoutMs: options.timeoutMs ?? o.timeoutMs ?? 60_000,
        maxOutputBytes: options.maxOutputBytes ?? o.maxOutputBytes ?? 1024 * 1024,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
        ...(o.killGraceMs !== undefined ? { killGraceMs: o.killGraceMs } : {}),
        cleanup: () => limits.cgroup.remove(),
      },
      'BubblewrapSandbox',
      this.#running,
    ).catch(async (error: unknown) => {
      await limits.cgroup.remove();
      throw error;
    });
  }

  /** Kills every command still running, with everything it started, and stops the network proxy. */
  async dispose(): Promise<void> {
    for (const p of this.#running) p.kill();
    this.#running.clear();
    const proxy = this.#proxyStarted;
    this.#proxyStarted = undefined;
    if (proxy) {
      const { server, dir } = await proxy.catch(() => ({ server: undefined, dir: undefined }));
      await server?.close();
      if (dir) await nodeBuiltin<NodeFs>('node:fs', 'BubblewrapSandbox').promises.rm(dir, { recursive: true, force: true });
    }
  }

  /** The allow-list proxy of this sandbox (started on the first command), and the Node that runs its forwarder inside. */
  async #proxy(fs: NodeFs, allow: readonly string[]): Promise<{ dir: string; node: string }> {
    const node = nodeProcess()?.execPath;
    if (!node) throw new SDKError(ERROR_CODES.LOUSHO_SANDBOX_UNSUPPORTED, 'BubblewrapSandbox: a network allow list needs Node (its forwarder runs inside the sandbox), and this runtime has no process.execPath.');
    this.#proxyStarted ??= (async () => {
      const dir = await fs.promises.mkdtemp('/tmp/lousho-proxy-');
      try {
        return { dir, server: await startAllowListProxy(`${dir}/proxy.sock`, allow) };
      } catch (error) {
        await fs.promises.rm(dir, { recursive: true, force: true });
        throw error;
      }
    })();
    const { dir } = await this.#proxyStarted;
    return { dir, node };
  }

  async #root(fs: NodeFs): Promise<string> {
    this.#realRoot ??= (async () => {
      const real = await fs.promises.realpath(this.root).catch((error: unknown) => {
        throw new WorkspaceError(ERROR_CODES.LOUSHO_WORKSPACE_NOT_FOUND, `The sandbox root '${this.root}' does not exist.`, { cause: error, hint: 'Create the directory first.' });
      });
      if (!(await fs.promises.stat(real)).isDirectory()) throw new WorkspaceError(ERROR_CODES.LOUSHO_WORKSPACE_NOT_FOUND, `The sandbox root '${this.root}' is not a directory.`);
      return real;
    })();
    this.#realRoot.catch(() => (this.#realRoot = undefined));
    return this.#realRoot;
  }

  /** The command's directory: the root, or a directory inside it (relative, or absolute inside the root). */
  async #cwd(fs: NodeFs, root: string, cwd: string | undefined): Promise<string> {
    if (cwd === undefined) return root;
    const given = cwd.startsWith('/') && (cwd === this.root || cwd.startsWith(`${this.root}/`)) ? root + cwd.slice(this.root.length) : cwd;
    const rel = confinePath(given, root);
    const real = await fs.promises.realpath(rel === '' ? root : `${root}/${rel}`).catch(() => undefined);
    if (real === undefined) throw unsuitable(rel, `'${displayPath(rel)}' does not exist; commands run in a directory of the workspace.`);
    if (real !== root && !real.startsWith(`${root}/`)) throw outsideRoot(cwd, 'a symlink on the way leads outside the workspace root');
    if (!(await fs.promises.stat(real)).isDirectory()) throw unsuitable(rel, `'${displayPath(rel)}' is not a directory; commands run in a directory.`);
    return real;
  }

  /** How each asked limit is enforced: a cgroup, or rlimits set by prlimit inside the sandbox. */
  async #limits(fs: NodeFs, status: Extract<BubblewrapStatus, { ok: true }>): Promise<{ prefix: string[]; cgroup: CommandCgroup }> {
    const l = this.#options.limits ?? {};
    const { cgroup, missing } = await createCommandCgroup(fs, {
      ...(l.processes !== undefined ? { pids: l.processes } : {}),
      ...(l.memoryBytes !== undefined ? { memory: l.memoryBytes } : {}),
    });
    const rlimits: string[] = [];
    if (l.cpuSeconds !== undefined) rlimits.push(`--cpu=${l.cpuSeconds}:${l.cpuSeconds + 1}`);
    if (l.fileSizeBytes !== undefined) rlimits.push(`--fsize=${l.fileSizeBytes}`);
    if (missing.includes('memory')) rlimits.push(`--as=${l.memoryBytes}`);
    if (missing.includes('pids')) {
      // Root is exempt from RLIMIT_NPROC: without a cgroup, a root caller's process limit cannot hold.
      if (nodeProcess()?.getuid?.() === 0) {
        await cgroup.remove();
        throw new SDKError(
          ERROR_CODES.LOUSHO_SANDBOX_UNSUPPORTED,
          'BubblewrapSandbox: limits.processes cannot be enforced here: no pids cgroup could be created, and RLIMIT_NPROC does not bind a process running as root.',
          { hint: 'Run as a non-root user, give this process a cgroup it may create children in (a delegated cgroup v2, or a writable v1 pids hierarchy), or leave limits.processes out.' },
        );
      }
      rlimits.push(`--nproc=${l.processes}`);
    }
    if (rlimits.length === 0) return { prefix: [], cgroup };
    if (!status.prlimit) {
      await cgroup.remove();
      throw new SDKError(ERROR_CODES.LOUSHO_SANDBOX_UNSUPPORTED, 'BubblewrapSandbox: the limits asked need prlimit (util-linux) at /usr/bin/prlimit, which is not installed.', {
        hint: 'Install util-linux, or leave cpuSeconds, fileSizeBytes (and memoryBytes/processes without cgroups) out.',
      });
    }
    return { prefix: [status.prlimit, ...rlimits, '--'], cgroup };
  }
}

/** A host name, an address (IPv4, or IPv6 in brackets), or `*.domain`. */
const HOST_RULE = /^(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?$|^\[[0-9A-Fa-f:.]+\]$/;

/** Where the proxy's socket folder and the forwarder's Node are, inside the sandbox. */
const PROXY_DIR = '/.lousho-proxy';
const PROXY_NODE = '/.lousho-node';
/** The forwarder's port on the sandbox's own loopback. */
const PROXY_PORT = 3128;
const PROXY_URL = `http://127.0.0.1:${PROXY_PORT}`;
/** What HTTP clients (curl, npm, pip, git, Node's fetch with a proxy agent) read to find the proxy. */
const PROXY_ENV = { HTTP_PROXY: PROXY_URL, HTTPS_PROXY: PROXY_URL, http_proxy: PROXY_URL, https_proxy: PROXY_URL, NO_PROXY: 'localhost,127.0.0.1', no_proxy: 'localhost,127.0.0.1' };

/**
 * Starts the forwarder ($0 is its script; $1 the socket, $2 the port), waits until it listens
 * (at most 5 s), then becomes the command.
 */
const START_FORWARDER = `r=/tmp/.lousho-proxy-ready; ${PROXY_NODE} -e "$0" "$1" "$2" "$r" & i=0; while [ ! -e "$r" ]; do i=$((i+1)); if [ "$i" -gt 500 ]; then echo "lousho: the sandbox's network proxy did not start" >&2; exit 125; fi; sleep 0.01; done; rm -f "$r"; shift 2; exec "$@"`;

/** Writes the launcher's pid to each cgroup.procs given before `--`, then becomes the rest. */
const JOIN_CGROUPS = 'while [ "$1" != -- ]; do echo $$ > "$1" || { echo "lousho: could not join the cgroup $1" >&2; exit 125; }; shift; done; shift; exec "$@"';

function positive(value: unknown, key: string, invalid: (message: string) => SDKError): void {
  if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 1)) throw invalid(`${key} must be a positive integer, got ${JSON.stringify(value)}.`);
}

function unavailable(status: { reason: string }): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_SANDBOX_UNAVAILABLE, `BubblewrapSandbox cannot run here: ${status.reason}`, {
    hint: 'Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) on a Linux host that allows user namespaces. See docs/workspace.md for the alternatives.',
  });
}
