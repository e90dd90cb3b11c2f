// What `npm run demo`, `npm test` and `pnpm bench` need before they start, on a fresh machine with
// only Node 20 and npm: the workspace installed with the pinned pnpm (through npx), and, for the
// browser tests, Debian's Chromium.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runQuietly } from './run-quietly.mjs';

export const PNPM = 'pnpm@12.4.2';

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
 * `install` replaces the install command (the tests use a stand-in).
 */
export async function ensureInstalled({ root = process.cwd(), out = process.stdout, install = ['npx', '--yes', PNPM, 'install', '--frozen-lockfile'] } = {}) {
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
  });
  return true;
}

/** Debian's Chromium for the browser tests, when it is missing and we may install it. */
export function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log("Installing Debian's chromium for the browser tests (apt-get)...");
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'], { stdio: 'inherit' });
  } else {
    console.warn('The browser tests need /usr/bin/chromium: run `sudo apt-get install -y chromium` (they fail without it).');
  }
}
