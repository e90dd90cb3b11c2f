// Makes `npm test` / `npm run demo` work on a fresh machine with only Node 20 and npm:
// installs the workspace with the pinned pnpm (through npx) when node_modules is missing or stale,
// and, for the browser tests, Debian's Chromium when it is missing and we may install it.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const PNPM = 'pnpm@12.4.2';
const marker = 'node_modules/.modules.yaml';
const stale = !existsSync(marker) || statSync('pnpm-lock.yaml').mtimeMs > statSync(marker).mtimeMs;

if (stale) {
  console.log(`Installing the workspace with ${PNPM} (first run)...`);
  // better-sqlite3 is a native addon: build it against the local Node headers (npm's `nodedir`),
  // since pnpm does not read npm's config and node-gyp would otherwise try to download them.
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
  execFileSync('npx', ['--yes', PNPM, 'install', '--frozen-lockfile'], { stdio: 'inherit', env });
}

const wantsBrowser = process.argv.includes('--browser');
if (wantsBrowser && !existsSync('/usr/bin/chromium')) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log("Installing Debian's chromium for the browser tests (apt-get)...");
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'], { stdio: 'inherit' });
  } else {
    console.warn('The browser tests need /usr/bin/chromium: run `sudo apt-get install -y chromium` (they fail without it).');
  }
}
