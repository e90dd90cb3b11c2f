import { nodeProcess, type NodeFs } from '../runtime/node-types.js';
import { runProcess } from './run-process.js';

/** Whether bubblewrap works here, and what the sandbox may rely on. */
export type BubblewrapStatus =
  | { ok: true; program: string; disableUserns: boolean; prlimit: string | undefined }
  | { ok: false; reason: string };

const probes = new Map<string, Promise<BubblewrapStatus>>();

/**
 * Finds bubblewrap and starts one empty sandbox with the namespaces `BubblewrapSandbox` uses, once
 * per program: a missing binary or a kernel that refuses user namespaces is reported with bwrap's
 * own words, before any command is run.
 */
export function bubblewrapStatus(program?: string): Promise<BubblewrapStatus> {
  const key = program ?? '';
  let probe = probes.get(key);
  if (!probe) {
    probe = probeBubblewrap(program);
    probes.set(key, probe);
  }
  return probe;
}

async function probeBubblewrap(given: string | undefined): Promise<BubblewrapStatus> {
  const fs = nodeProcess()?.getBuiltinModule?.('node:fs') as NodeFs | undefined;
  if (!fs || !nodeProcess()?.getBuiltinModule?.('node:child_process')) return { ok: false, reason: "this runtime has no Node built-in modules (node:fs, node:child_process)." };
  const program = given ?? (await findProgram(fs));
  if (!program) return { ok: false, reason: 'bubblewrap (bwrap) is not installed: it is neither at /usr/bin/bwrap nor on the PATH.' };
  const run = (args: string[]) =>
    runProcess({ argv: [program, ...args], cwd: '/', env: { PATH: '/usr/bin:/bin' }, timeoutMs: 10_000, maxOutputBytes: 4096 }, 'BubblewrapSandbox').catch((error: unknown) => ({
      exitCode: -1,
      stdout: '',
      stderr: error instanceof Error ? error.message : String(error),
    }));
  const version = await run(['--version']);
  if (version.exitCode !== 0) return { ok: false, reason: `'${program}' could not be run (${version.stderr.trim() || `exit code ${version.exitCode}`}).` };
  const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(version.stdout) ?? []).slice(1).map(Number);
  const disableUserns = major > 0 || minor >= 8;
  const trial = await run([
    '--unshare-user',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    ...(disableUserns ? ['--disable-userns'] : []),
    '--cap-drop',
    'ALL',
    '--die-with-parent',
    '--ro-bind',
    '/',
    '/',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--',
    '/bin/sh',
    '-c',
    'exit 0',
  ]);
  if (trial.exitCode !== 0) return { ok: false, reason: `bubblewrap could not create its namespaces: ${trial.stderr.trim() || `exit code ${trial.exitCode}`}.` };
  const prlimit = (await fs.promises.access('/usr/bin/prlimit').then(() => true, () => false)) ? '/usr/bin/prlimit' : undefined;
  return { ok: true, program, disableUserns, prlimit };
}

async function findProgram(fs: NodeFs): Promise<string | undefined> {
  const dirs = ['/usr/bin', ...(nodeProcess()?.env?.PATH ?? '').split(':').filter((d) => d.startsWith('/'))];
  for (const dir of dirs) {
    const path = `${dir}/bwrap`;
    if (await fs.promises.access(path, 1).then(() => true, () => false)) return path;
  }
  return undefined;
}
