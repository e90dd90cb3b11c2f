import type { NodeFs } from '../runtime/node-types.js';

/** The host's system directories commands need, shown read-only (symlinks, as on merged-/usr systems, are recreated). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * The files of /etc programs need to run, resolve names and check certificates. The rest of /etc
 * (shadow, ssh keys, cloud credentials, a package manager's auth) stays hidden.
 */
const ETC_FILES = [
  'alternatives',
  'ca-certificates',
  'ca-certificates.conf',
  'debian_version',
  'gai.conf',
  'group',
  'host.conf',
  'hosts',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'mime.types',
  'nsswitch.conf',
  'os-release',
  'passwd',
  'pki',
  'protocols',
  'resolv.conf',
  'services',
  'ssl',
  'timezone',
];

/**
 * Paths inside the workspace kept read-only even though the workspace is writable: what the host
 * runs later on its own (git hooks, git's config with its `core.fsmonitor` and aliases).
 */
export const DEFAULT_PROTECTED_PATHS = ['.git/hooks', '.git/config'];

export interface BwrapLayout {
  /** The workspace root, real path: read-write, at the same path inside. */
  root: string;
  cwd: string;
  readOnlyPaths: readonly string[];
  writablePaths: readonly string[];
  protectedPaths: readonly string[];
  shareNetwork: boolean;
  /** bubblewrap 0.8+: forbid nested user namespaces (a way back to capabilities). */
  disableUserns: boolean;
}

/** bubblewrap's arguments for one command: namespaces, then the file system, in mount order. */
export async function bwrapArgs(fs: NodeFs, layout: BwrapLayout): Promise<string[]> {
  const args = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (!layout.shareNetwork) args.push('--unshare-net');
  if (layout.disableUserns) args.push('--disable-userns');
  // No capabilities inside; the sandbox's pid 1 dies with bubblewrap, and with it every process;
  // a new session, so a command cannot push input into the caller's terminal (TIOCSTI).
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--new-session', '--hostname', 'sandbox');
  for (const dir of SYSTEM_DIRS) {
    const stat = await fs.promises.lstat(dir).catch(() => undefined);
    if (!stat) continue;
    if (stat.isSymbolicLink()) args.push('--symlink', await fs.promises.readlink(dir), dir);
    else if (stat.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  for (const name of ETC_FILES) args.push('--ro-bind-try', `/etc/${name}`, `/etc/${name}`);
  // /proc of the sandbox's own pid namespace: no other process (the agent's included) is in it.
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  for (const path of layout.readOnlyPaths) args.push('--ro-bind', path, path);
  for (const path of layout.writablePaths) args.push('--bind', path, path);
  args.push('--bind', layout.root, layout.root);
  for (const rel of layout.protectedPaths) args.push('--ro-bind-try', `${layout.root}/${rel}`, `${layout.root}/${rel}`);
  args.push('--chdir', layout.cwd);
  return args;
}
