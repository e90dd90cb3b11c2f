#!/usr/bin/env node
// `npx lousho …` at the root of the repository, on a fresh clone with only Node 20 and npm: npx runs
// the root package's own `lousho` bin (this file), which installs the workspace and builds the
// command when needed (quietly, on stderr, so that the command's own output stays clean), then runs
// @lousho/cli as a user's `npx lousho` would.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildPackages, ensureInstalled, isBuildStale } from './lib/workspace.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'packages/cli/dist/bin.js');

try {
  await ensureInstalled({ root, out: process.stderr });
  if (isBuildStale(root, '@lousho/cli', bin)) {
    await buildPackages({ root, filter: '@lousho/cli', label: 'Building the lousho command', out: process.stderr });
  }
} catch (error) {
  if (!error.log) console.error(error.message);
  process.exit(error.exitCode ?? 1);
}
// The command reads its arguments from process.argv.slice(2), which are this script's.
await import(pathToFileURL(bin).href);
