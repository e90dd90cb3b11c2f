// `npm run build`, `lint`, `size`, `bench` and `typecheck` on a machine with only Node 20 and npm:
// installs the workspace when needed, then runs the command given (turbo, pnpm, ...) with the pinned
// pnpm first on PATH (turbo runs each package's script with it, and stops with "Unable to find
// package manager binary" without it). `node scripts/with-workspace.mjs turbo run build`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureInstalled, workspaceEnv } from './lib/workspace.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/with-workspace.mjs <command> [args...]');
  process.exit(2);
}

let env;
try {
  await ensureInstalled({ root });
  env = workspaceEnv(root);
} catch (error) {
  if (!error.log) console.error(error.message);
  process.exit(error.exitCode ?? 1);
}
const child = spawn(command, args, { cwd: process.cwd(), env, stdio: 'inherit' });
child.once('error', (error) => {
  console.error(`${command}: ${error.message}`);
  process.exit(1);
});
// Ctrl-C reaches the child through the terminal too; a signal sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
