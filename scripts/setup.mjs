// What `npm test` needs before its type check and its tests, on a fresh machine with only Node 20
// and npm, in any order with `npm run demo`: the workspace installed (quietly, see lib/workspace.mjs),
// Debian's Chromium (the browser tests) and bubblewrap (the sandbox tests) when we may install them
// (as root), and the packages whose build a test reads (the exports test imports the built
// @lousho/build-ai-agent as a user would). `node scripts/setup.mjs` runs it alone.
import { fileURLToPath } from 'node:url';
import { buildPackages, ensureInstalled, ensureSystemPackages } from './lib/workspace.mjs';

/** The packages the tests read built (a turbo filter each: the package and what it depends on). */
export const BUILT_FOR_TESTS = ['@lousho/build-ai-agent'];

/** Prepares the workspace at `root` for its tests; rejects (after printing why) when a step fails. */
export async function setUpForTests({ root, out = process.stdout, log }) {
  await ensureInstalled({ root, out, log });
  await ensureSystemPackages({ out, log });
  for (const filter of BUILT_FOR_TESTS) {
    await buildPackages({ root, filter, label: `Building ${filter} and what it depends on (a test reads the build)`, out, log });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await setUpForTests({ root: fileURLToPath(new URL('..', import.meta.url)) });
  } catch (error) {
    process.exit(error.exitCode ?? 1);
  }
}
