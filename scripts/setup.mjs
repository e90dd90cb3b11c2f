// Makes `npm test` / `npm run demo` work on a fresh machine with only Node 20 and npm:
// installs the workspace with the pinned pnpm (through npx) when node_modules is missing or stale.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const PNPM = 'pnpm@12.4.2';
const marker = 'node_modules/.modules.yaml';
const stale = !existsSync(marker) || statSync('pnpm-lock.yaml').mtimeMs > statSync(marker).mtimeMs;

if (stale) {
  console.log(`Installing the workspace with ${PNPM} (first run)...`);
  execFileSync('npx', ['--yes', PNPM, 'install', '--frozen-lockfile'], { stdio: 'inherit' });
}
