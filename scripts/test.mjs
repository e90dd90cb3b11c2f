// `npm test` (arguments go to `vitest run`): prepares what the tests need (scripts/setup.mjs),
// type-checks every package, then runs every test, quietly (scripts/lib/run-tests.mjs).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newLogFile } from './lib/run-quietly.mjs';
import { runTests } from './lib/run-tests.mjs';
import { setUpForTests } from './setup.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
process.exitCode = await runTests({
  root,
  args: process.argv.slice(2),
  log: newLogFile('npm-test.log'),
  setup: setUpForTests,
  typecheck: { command: process.execPath, args: [join(root, 'scripts/typecheck.mjs')] },
});
