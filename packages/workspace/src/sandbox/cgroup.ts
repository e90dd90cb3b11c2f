import type { NodeFs } from '../runtime/node-types.js';

/** A cgroup made for one command, with its limits written, that the command's launcher joins. */
export interface CommandCgroup {
  /** The `cgroup.procs` files the launcher writes its pid to before it starts bubblewrap. */
  procs: string[];
  /** Removes the cgroups (once the command and everything it started are gone). */
  remove(): Promise<void>;
}

/** What the kernel lets a cgroup bound: processes (`pids`) and memory (`memory`). */
export type CgroupController = 'pids' | 'memory';

interface Mount {
  root: string;
  point: string;
  version: 1 | 2;
  controllers: string[];
}

/** The file that holds a controller's limit, by cgroup version. */
const LIMIT_FILES: Record<CgroupController, Record<1 | 2, string>> = {
  pids: { 1: 'pids.max', 2: 'pids.max' },
  memory: { 1: 'memory.limit_in_bytes', 2: 'memory.max' },
};

let counter = 0;

/**
 * Creates, for each limit asked, a cgroup next to this process's own (v1 or v2, wherever this
 * process may create one) and writes the limit. Returns the controllers it could not set up, so
 * the caller refuses or falls back; never half-applies silently.
 */
export async function createCommandCgroup(fs: NodeFs, limits: Partial<Record<CgroupController, number>>): Promise<{ cgroup: CommandCgroup; missing: CgroupController[] }> {
  const wanted = (Object.keys(limits) as CgroupController[]).filter((c) => limits[c] !== undefined);
  const created: string[] = [];
  const procs: string[] = [];
  const missing: CgroupController[] = [];
  const cgroup: CommandCgroup = { procs, remove: () => removeAll(fs, created) };
  if (wanted.length === 0) return { cgroup, missing };
  const [mounts, own] = await Promise.all([cgroupMounts(fs), ownCgroups(fs)]).catch(() => [[], new Map<string, string>()] as const);
  const name = `lousho-sandbox-${globalThis.crypto.randomUUID().slice(0, 8)}-${++counter}`;
  for (const controller of wanted) {
    const dir = await createFor(fs, controller, mounts, own, name, created);
    if (!dir) {
      missing.push(controller);
      continue;
    }
    try {
      await fs.promises.writeFile(`${dir.path}/${LIMIT_FILES[controller][dir.version]}`, String(limits[controller]));
      // Swap would let memory past the limit (v2; v1's memsw files exist only with swap accounting).
      if (controller === 'memory' && dir.version === 2) await fs.promises.writeFile(`${dir.path}/memory.swap.max`, '0').catch(() => {});
      if (!procs.includes(`${dir.path}/cgroup.procs`)) procs.push(`${dir.path}/cgroup.procs`);
    } catch {
      missing.push(controller);
    }
  }
  return { cgroup, missing };
}

async function createFor(
  fs: NodeFs,
  controller: CgroupController,
  mounts: readonly Mount[],
  own: ReadonlyMap<string, string>,
  name: string,
  created: string[],
): Promise<{ path: string; version: 1 | 2 } | undefined> {
  const v1 = mounts.find((m) => m.version === 1 && m.controllers.includes(controller));
  const candidates: { mount: Mount; path: string | undefined }[] = [];
  if (v1) candidates.push({ mount: v1, path: own.get(controller) });
  for (const m of mounts.filter((m) => m.version === 2)) candidates.push({ mount: m, path: own.get('') });
  for (const { mount, path } of candidates) {
    if (path === undefined || !(path === mount.root || path.startsWith(mount.root === '/' ? '/' : `${mount.root}/`))) continue;
    const dir = `${mount.point}${path.slice(mount.root === '/' ? 0 : mount.root.length)}`.replace(/\/+$/, '') + `/${name}`;
    const existed = created.includes(dir);
    if (!existed) {
      try {
        await fs.promises.mkdir(dir, { recursive: true });
      } catch {
        continue;
      }
      created.push(dir);
    }
    // The controller is there only when its limit file is (v2: when delegated to this cgroup).
    const ok = await fs.promises.access(`${dir}/${LIMIT_FILES[controller][mount.version]}`).then(
      () => true,
      () => false,
    );
    if (ok) return { path: dir, version: mount.version };
  }
  return undefined;
}

/** The cgroup file systems mounted here (from /proc/self/mountinfo). */
async function cgroupMounts(fs: NodeFs): Promise<Mount[]> {
  const text = await fs.promises.readFile('/proc/self/mountinfo', 'utf8');
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    const [before, after] = line.split(' - ');
    if (!before || !after) continue;
    const fields = before.split(' ');
    const [type, , options = ''] = after.split(' ');
    const root = unescape(fields[3] ?? '');
    const point = unescape(fields[4] ?? '');
    if (type === 'cgroup2') mounts.push({ root, point, version: 2, controllers: [] });
    else if (type === 'cgroup') mounts.push({ root, point, version: 1, controllers: options.split(',') });
  }
  return mounts;
}

/** This process's cgroup path per v1 controller, and under `''` its v2 path (from /proc/self/cgroup). */
async function ownCgroups(fs: NodeFs): Promise<Map<string, string>> {
  const text = await fs.promises.readFile('/proc/self/cgroup', 'utf8');
  const own = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    if (match[1] === '') own.set('', match[2]!);
    else for (const controller of match[1]!.split(',')) own.set(controller, match[2]!);
  }
  return own;
}

/** mountinfo escapes spaces and the like as octal (`\040`). */
function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** rmdir of an empty cgroup; it may take a moment after the last process is gone. */
async function removeAll(fs: NodeFs, dirs: readonly string[]): Promise<void> {
  for (const dir of [...dirs].reverse()) {
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        await fs.promises.rmdir(dir);
        break;
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') break;
        await new Promise((r) => setTimeout(r, 25));
      }
    }
  }
}
