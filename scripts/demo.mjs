// `npm run demo` (the React and Vue demos on the demo server) and `npm run demo:svelte` (the
// SvelteKit demo on its own server): installs when needed, builds quietly (the build's output shows
// only if it fails), then starts the server, whose lines say where each demo is.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runQuietly } from './lib/run-quietly.mjs';
import { ensureInstalled } from './lib/workspace.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const inRepo = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const svelte = process.argv[2] === 'svelte';

/** `vite build` of an app, with the app's own vite (production mode, whatever NODE_ENV says). */
const viteBuild = (app) => ({
  command: process.execPath,
  args: [inRepo(`apps/${app}/node_modules/vite/bin/vite.js`), 'build'],
  cwd: inRepo(`apps/${app}`),
  env: { ...process.env, NODE_ENV: 'production' },
});

try {
  await ensureInstalled({ root });
  if (svelte) {
    await runQuietly({ label: 'Building the SvelteKit demo', ...viteBuild('sveltekit-demo') });
  } else {
    await runQuietly({ label: 'Building the React demo', ...viteBuild('react-demo') });
    await runQuietly({ label: 'Building the Vue demo', ...viteBuild('vue-demo') });
  }
} catch (error) {
  process.exit(error.exitCode ?? 1);
}

const server = svelte
  ? spawn(process.execPath, ['server.js'], { cwd: inRepo('apps/sveltekit-demo'), stdio: 'inherit' })
  : spawn(process.execPath, ['--import', 'tsx', '--conditions=@lousho/source', 'src/main.ts'], { cwd: inRepo('apps/demo-server'), stdio: 'inherit' });
// Ctrl-C reaches the server through the terminal too; a signal sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
