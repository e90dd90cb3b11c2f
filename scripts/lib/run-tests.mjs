// What `npm test` runs (scripts/test.mjs): the setup, the type check, then `vitest run`, quietly. The
// terminal gets one line per step and, from Vitest, the failures (whole) and the summary; the detail
// (install and apt-get output, the type check's, one line per test file, every console line of the
// tests) goes to the log file, whose path is printed first and last.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runQuietly } from './run-quietly.mjs';

const LOG_REPORTER = fileURLToPath(new URL('./vitest-log-reporter.mjs', import.meta.url));

/**
 * Resolves with the exit code. `setup` prepares the workspace (rejects after printing why when it
 * fails); `typecheck` is the type check's command; `vitest` the path of vitest.mjs.
 */
export async function runTests({ root, args = [], log, out = process.stdout, setup, typecheck, vitest = join(root, 'node_modules/vitest/vitest.mjs') }) {
  out.write(`The full output goes to ${log}\n`);
  try {
    await setup({ root, out, log });
    await runQuietly({ label: 'Type-checking every package', ...typecheck, cwd: root, out, log });
  } catch (error) {
    if (!error.log) out.write(`${error.message}\n`);
    out.write(`The full output is in ${log}\n`);
    return error.exitCode ?? 1;
  }
  // Vitest's "minimal" reporter prints a failing test whole (its console lines too) and the summary;
  // ours writes the rest to the log. A reporter given on the command line replaces both.
  const reporters = args.some((arg) => arg.startsWith('--reporter')) ? [] : ['--reporter=minimal', `--reporter=${LOG_REPORTER}`];
  out.write('Running the tests...\n');
  // The terminal itself when printing there (Vitest colours its output for a terminal).
  const inherit = out === process.stdout;
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', ...reporters, ...args], {
      cwd: root,
      env: { ...process.env, LOUSHO_TEST_LOG: log },
      stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(out, { end: false });
    child.stderr?.pipe(out, { end: false });
    const forward = (signal) => child.kill(signal);
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, forward);
    child.once('close', (status, signal) => {
      for (const name of ['SIGINT', 'SIGTERM']) process.off(name, forward);
      resolve(status ?? (signal ? 1 : 0));
    });
  });
  out.write(`The full output is in ${log}\n`);
  return code;
}
