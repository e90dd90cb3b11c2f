import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REACT_DEMO_DIR, REPO_ROOT } from './paths.js';

/** Folders whose files end up in the React demo's bundle (its own sources and the workspace libraries it uses). */
const SOURCE_DIRS = [
  join(REACT_DEMO_DIR, 'src'),
  join(REACT_DEMO_DIR, 'public'),
  join(REACT_DEMO_DIR, 'index.html'),
  join(REACT_DEMO_DIR, 'vite.config.ts'),
  join(REPO_ROOT, 'packages/core/src'),
  join(REPO_ROOT, 'packages/build-ai-agent/src'),
  join(REPO_ROOT, 'packages/react/src'),
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

/** Builds the React demo with Vite's API when dist/ is missing or older than anything it is built from. */
export async function buildReactDemoIfStale(): Promise<'built' | 'fresh'> {
  const index = join(REACT_DEMO_DIR, 'dist', 'index.html');
  const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0;
  const sourcesAt = Math.max(...SOURCE_DIRS.map(newestMtime));
  if (builtAt > sourcesAt) return 'fresh';
  const { build } = await import('vite');
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build({ root: REACT_DEMO_DIR, mode: 'production', logLevel: 'warn', configFile: join(REACT_DEMO_DIR, 'vite.config.ts') });
  } finally {
    if (nodeEnv === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = nodeEnv;
  }
  return 'built';
}
