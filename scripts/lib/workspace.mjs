// What the root scripts (`npm test`, `npm run demo`, `build`, `lint`, `size`, `bench`, `npx lousho`)
// need before they start, on a fresh machine with only Node 20 and npm: the workspace installed with
// the pinned pnpm (through npx), that pnpm on PATH (turbo runs each package's script with it), the
// packages built where a command reads their build, and, for the tests, Debian's system packages.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { runQuietly } from './run-quietly.mjs';

export const PNPM_VERSION = '12.4.2';
export const PNPM = `pnpm@${PNPM_VERSION}`;

/** True when node_modules is missing, or older than the lockfile. */
export function needsInstall(root) {
  const marker = join(root, 'node_modules/.modules.yaml');
  return !existsSync(marker) || statSync(join(root, 'pnpm-lock.yaml')).mtimeMs > statSync(marker).mtimeMs;
}

/** The environment for the install: better-sqlite3 is built against this machine's Node headers. */
function installEnv() {
  // pnpm does not read npm's config, and node-gyp would otherwise try to download the headers.
  const env = { ...process.env };
  if (!env.npm_config_nodedir) {
    let nodedir = '';
    try {
      nodedir = execFileSync('npm', ['config', 'get', 'nodedir'], { encoding: 'utf8' }).trim();
    } catch {
      // fall through to the default below
    }
    env.npm_config_nodedir = nodedir && nodedir !== 'undefined' && nodedir !== 'null' ? nodedir : '/usr';
  }
  return env;
}

/**
 * Installs the workspace when it needs it, quietly: one line says what is happening and how long it
 * takes; pnpm's output (pages of it, from the native SQLite build) is shown only if it fails.
 * `install` replaces the install command (the tests use a stand-in); `log` collects the output.
 */
export async function ensureInstalled({ root = process.cwd(), out = process.stdout, log, install = ['npx', '--yes', PNPM, 'install', '--frozen-lockfile'] } = {}) {
  if (!needsInstall(root)) return false;
  const [command, ...args] = install;
  await runQuietly({
    label: 'Installing dependencies',
    note: '(first run only, about 3 minutes: pnpm fetches the packages and compiles the native SQLite module)',
    command,
    args,
    cwd: root,
    env: installEnv(),
    out,
    log,
  });
  return true;
}

/** The version of the `pnpm` that `env`'s PATH (or `bin`) finds, or undefined when there is none. */
function pnpmVersion(env, bin = 'pnpm') {
  const result = spawnSync(bin, ['--version'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * The folder of the pinned pnpm to put first on PATH, or undefined when the `pnpm` on PATH is that
 * version. Otherwise npx fetches it (once: the folder is remembered in node_modules/.cache).
 */
export function pinnedPnpmDir(root, env = process.env) {
  if (pnpmVersion(env) === PNPM_VERSION) return undefined;
  const remembered = join(root, 'node_modules/.cache/lousho/pnpm-dir');
  if (existsSync(remembered)) {
    const dir = readFileSync(remembered, 'utf8').trim();
    if (pnpmVersion(env, join(dir, 'pnpm')) === PNPM_VERSION) return dir;
  }
  const found = spawnSync('npx', ['--yes', `--package=${PNPM}`, '--', 'sh', '-c', 'command -v pnpm'], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const path = found.stdout?.trim();
  if (found.status !== 0 || !path) throw new Error(`Could not fetch ${PNPM} through npx (exit code ${found.status}).`);
  const dir = dirname(path);
  mkdirSync(dirname(remembered), { recursive: true });
  writeFileSync(remembered, `${dir}\n`);
  return dir;
}

/** `env` with the pinned pnpm and the workspace's own commands (turbo, vitest, ...) first on PATH. */
export function workspaceEnv(root, env = process.env) {
  const pnpmDir = pinnedPnpmDir(root, env);
  const path = [pnpmDir, join(root, 'node_modules/.bin'), env.PATH].filter(Boolean).join(delimiter);
  return { ...env, PATH: path };
}

/**
 * Builds `filter` (a turbo filter: the package and, through `^build`, what it depends on) quietly.
 * Turbo's cache makes it a second or two when nothing changed.
 */
export async function buildPackages({ root, filter, label, out = process.stdout, log }) {
  return runQuietly({
    label,
    command: join(root, 'node_modules/.bin/turbo'),
    args: ['run', 'build', `--filter=${filter}`, '--output-logs=errors-only'],
    cwd: root,
    env: workspaceEnv(root),
    out,
    log,
  });
}

/** The workspace packages `name` depends on, itself included, as folders (through package.json files). */
export function workspaceClosure(root, name) {
  const byName = new Map();
  for (const parent of ['packages', 'apps']) {
    for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
      const manifest = join(root, parent, entry.name, 'package.json');
      if (entry.isDirectory() && existsSync(manifest)) byName.set(JSON.parse(readFileSync(manifest, 'utf8')).name, join(root, parent, entry.name));
    }
  }
  const seen = new Set();
  const visit = (pkg) => {
    const dir = byName.get(pkg);
    if (!dir || seen.has(dir)) return;
    seen.add(dir);
    const { dependencies = {} } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const [dep, spec] of Object.entries(dependencies)) if (String(spec).startsWith('workspace:')) visit(dep);
  };
  visit(name);
  return [...seen];
}

/** The newest modification time of the files under `dir` (0 when it does not exist). */
function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** True when `built` (a file of a package's build) is missing or older than a source it is built from. */
export function isBuildStale(root, name, built) {
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return workspaceClosure(root, name).some((dir) => newestMtime(join(dir, 'src')) > builtAt || statSync(join(dir, 'package.json')).mtimeMs > builtAt);
}

/** The Debian packages the tests need, and the file each one installs. */
export const TEST_SYSTEM_PACKAGES = [
  { name: 'chromium', file: '/usr/bin/chromium', why: 'the browser tests' },
  { name: 'bubblewrap', file: '/usr/bin/bwrap', why: 'the sandbox tests' },
];

/**
 * Installs the Debian packages of `packages` that are missing (quietly, as the workspace install),
 * when we may: as root with apt-get. Otherwise says which are missing and how to install them.
 */
export async function ensureSystemPackages({ packages = TEST_SYSTEM_PACKAGES, out = process.stdout, log, exists = existsSync, isRoot = process.getuid?.() === 0, aptGet = '/usr/bin/apt-get' } = {}) {
  const missing = packages.filter((pkg) => !exists(pkg.file));
  if (missing.length === 0) return [];
  const names = missing.map((pkg) => pkg.name).join(' ');
  if (!isRoot || !exists(aptGet)) {
    out.write(`The tests need ${missing.map((pkg) => `${pkg.file} (${pkg.why})`).join(' and ')}: run \`sudo apt-get install -y ${names}\` (they fail without it).\n`);
    return missing.map((pkg) => pkg.name);
  }
  await runQuietly({
    label: `Installing Debian's ${missing.map((pkg) => `${pkg.name} (${pkg.why})`).join(' and ')} with apt-get`,
    command: 'sh',
    args: ['-c', `${aptGet} update -qq && DEBIAN_FRONTEND=noninteractive ${aptGet} install -y -qq ${names}`],
    out,
    log,
  });
  return missing.map((pkg) => pkg.name);
}
