import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The workspace packages the benchmarks import, run from their build (`dist`) as a user's app runs them. */
const PACKAGES = ['core', 'demo-agent', 'build-ai-agent', 'react', 'vue', 'svelte'];

/** The newest modification time of any file under `dir` (0 when it does not exist). */
function newest(dir: string): number {
  let latest = 0;
  try {
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) latest = Math.max(latest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
    }
  } catch {
    return 0;
  }
  return latest;
}

/**
 * Throws unless every package the benchmarks import has a build at least as new as its source:
 * the benchmarks measure Lousho as it ships (the AI SDK runs from its published build too), and
 * a stale build would measure other code than the tree's without a word.
 */
export function assertBuilt(): void {
  for (const name of PACKAGES) {
    const root = fileURLToPath(new URL(`../../../${name}/`, import.meta.url));
    const built = newest(`${root}dist`);
    if (built === 0 || built < newest(`${root}src`)) {
      throw new Error(`packages/${name} has no build, or one older than its source: run \`pnpm exec turbo run build --filter=@lousho/bench^...\` at the repository root first (\`pnpm bench\` does).`);
    }
  }
}
