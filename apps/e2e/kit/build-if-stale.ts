import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { inRepo } from './paths.js';

export interface AppBuild {
  /** The app's folder (where `vite build` runs). */
  appDir: string;
  /** The app's own inputs, relative to `appDir` (`src`, `index.html`, `vite.config.ts`, ...). */
  sources: string[];
  /** The workspace packages it bundles from their sources (`core`, `vue`, ...: packages/<name>/src, and the stylesheets beside it). */
  packages: string[];
  /** A file the build writes, relative to `appDir`: its age is the build's age. */
  builtMarker: string;
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** The stylesheets at a package's root (`styles.css`, `thread-sidebar.css`, ...): a change to any of them is a change to the app. */
function stylesheetsOf(name: string): string[] {
  const dir = inRepo(`packages/${name}`);
  return existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.css')).map((file) => join(dir, file)) : [];
}

/** Runs the app's `vite build` when its output is missing or older than anything it is built from. */
export async function buildIfStale(build: AppBuild): Promise<'built' | 'fresh'> {
  const marker = join(build.appDir, build.builtMarker);
  const builtAt = existsSync(marker) ? statSync(marker).mtimeMs : 0;
  const inputs = [...build.sources.map((path) => (isAbsolute(path) ? path : join(build.appDir, path))), ...build.packages.flatMap((name) => [inRepo(`packages/${name}/src`), ...stylesheetsOf(name)])];
  if (builtAt > Math.max(...inputs.map(newestMtime))) return 'fresh';
  const vite = join(build.appDir, 'node_modules', 'vite', 'bin', 'vite.js');
  await new Promise<void>((resolve, reject) => {
    // A child process with NODE_ENV=production: Vitest's NODE_ENV=test would give the frameworks' development builds.
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: build.appDir, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build in ${build.appDir} failed (exit code ${code}):\n${output}`))));
  });
  return 'built';
}
