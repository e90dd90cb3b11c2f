import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { APP_DIR, REPO_ROOT } from './paths.js';

/** What the build is made from: the app and the workspace libraries it bundles (from their sources). */
const SOURCES = [
  'src',
  'static',
  'svelte.config.js',
  'vite.config.ts',
  'package.json',
  ...['core', 'build-ai-agent', 'svelte', 'demo-agent'].map((name) => join(REPO_ROOT, 'packages', name, 'src')),
].map((path) => (path.startsWith('/') ? path : join(APP_DIR, path)));

/** The file adapter-node writes last-ish: the build's age. */
const BUILT_MARKER = join(APP_DIR, 'build', 'handler.js');

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Runs `vite build` in the app (SvelteKit + adapter-node → build/) when build/ is missing or older than its sources. */
export async function buildAppIfStale(): Promise<'built' | 'fresh'> {
  const builtAt = existsSync(BUILT_MARKER) ? statSync(BUILT_MARKER).mtimeMs : 0;
  if (builtAt > Math.max(...SOURCES.map(newestMtime))) return 'fresh';
  const vite = join(APP_DIR, 'node_modules', 'vite', 'bin', 'vite.js');
  await new Promise<void>((resolve, reject) => {
    // A child process: Vitest's NODE_ENV=test would otherwise give a development build of Svelte.
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: APP_DIR, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build failed (exit code ${code}):\n${output}`))));
  });
  return 'built';
}
