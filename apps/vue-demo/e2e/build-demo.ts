import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, VUE_DEMO_DIR } from './paths.js';

/** What ends up in the Vue demo's bundle: its own sources and the workspace libraries it uses. */
const SOURCES = [
  join(VUE_DEMO_DIR, 'src'),
  join(VUE_DEMO_DIR, 'public'),
  join(VUE_DEMO_DIR, 'index.html'),
  join(VUE_DEMO_DIR, 'vite.config.ts'),
  join(REPO_ROOT, 'packages/core/src'),
  join(REPO_ROOT, 'packages/build-ai-agent/src'),
  join(REPO_ROOT, 'packages/vue/src'),
  join(REPO_ROOT, 'packages/demo-agent/src'),
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/**
 * Builds the Vue demo with Vite's API when dist/ is missing or older than anything it is built
 * from. (The demo server does not need the React demo to serve this one at /vue/.)
 */
export async function buildVueDemoIfStale(): Promise<'built' | 'fresh'> {
  const index = join(VUE_DEMO_DIR, 'dist', 'index.html');
  const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (builtAt > Math.max(...SOURCES.map(newestMtime))) return 'fresh';
  const { build } = await import('vite');
  // Vitest sets NODE_ENV=test, which would make Vite bundle Vue's development build.
  const nodeEnv = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build({ root: VUE_DEMO_DIR, mode: 'production', logLevel: 'warn', configFile: join(VUE_DEMO_DIR, 'vite.config.ts') });
  } finally {
    if (nodeEnv === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = nodeEnv;
  }
  return 'built';
}
