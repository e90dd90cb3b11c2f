// Makes `npm test` / `pnpm bench` work on a fresh machine with only Node 20 and npm: installs the
// workspace when node_modules is missing or stale (quietly, see lib/workspace.mjs) and, with
// --browser, Debian's Chromium for the browser tests.
import { ensureChromium, ensureInstalled } from './lib/workspace.mjs';

try {
  await ensureInstalled();
} catch (error) {
  process.exit(error.exitCode ?? 1);
}
if (process.argv.includes('--browser')) ensureChromium();
