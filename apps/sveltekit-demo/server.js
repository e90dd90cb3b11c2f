// Starts the built SvelteKit demo (`npm start`, after `npm run build`): adapter-node's request
// handler on a plain node:http server of our own, so the address is 127.0.0.1 by default (HOST to
// change, PORT too: 3001 by default, beside the demo server's 3000), a taken port is one clear line
// instead of a stack, and Ctrl-C stops at once.
//
// It serves a copy of build/ taken at start: a rebuild empties and rewrites build/ (adapter-node),
// and a server reading the folder it is rebuilding would fail on files that are gone (an unhandled
// ENOENT ended the process). The copy keeps this server whole; a restart serves the new build.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, watch } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const host = process.env.HOST?.trim() || '127.0.0.1';
const port = parsePort(process.env.PORT);

if (!existsSync(new URL('./build/handler.js', import.meta.url))) {
  console.error('The SvelteKit demo is not built yet: run `npm run build` in apps/sveltekit-demo (or `npm run demo:svelte` at the root).');
  process.exit(1);
}

const appDir = fileURLToPath(new URL('.', import.meta.url));
const served = snapshotBuild();

// This server speaks plain HTTP: a request is HTTPS only when a proxy in front of it says so
// (X-Forwarded-Proto). adapter-node would otherwise take every request for HTTPS, unless ORIGIN or
// PROTOCOL_HEADER say better (then they win).
const trustForwardedProto = !process.env.ORIGIN && !process.env.PROTOCOL_HEADER;
if (trustForwardedProto) process.env.PROTOCOL_HEADER = 'x-forwarded-proto';
// Loaded once the port is ours (see listen below): SvelteKit's init hook then starts the webhook
// trigger and prints how to call it, after the address, and not at all when the port is taken.
let app;

const server = createServer((req, res) => {
  // The first proxy's word (a chain sends "https, http"), and only http or https.
  if (trustForwardedProto) req.headers['x-forwarded-proto'] = firstProto(req.headers['x-forwarded-proto']);
  void app.then(({ handler }) => handler(req, res));
});
server.on('error', (error) => {
  if (error.code === 'EADDRINUSE') console.error(`Port ${port} is in use: start with PORT=<another port>.`);
  else console.error(error.message);
  process.exit(1);
});
server.listen(port, host, () => {
  const address = server.address();
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  console.log(`Lousho SvelteKit demo running at http://${shownHost}:${address.port}/`);
  // The demo server beside this one, at the port before the one asked for (3000 beside 3001; the
  // pages link there). PORT=0, any free port, pairs with nothing: the default is said.
  const besidePort = port > 1 ? port - 1 : 3000;
  const startDemo = besidePort === 3000 ? 'npm run demo' : `PORT=${besidePort} npm run demo`;
  console.log(`  The React and Vue demos: ${startDemo} (http://127.0.0.1:${besidePort}/ and /vue/)`);
  app = import(pathToFileURL(join(served, 'handler.js')).href);
  sayWhenRebuilt();
  app.catch((error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
});

// Streams stay open while runs go on: end them so Ctrl-C stops at once.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

/** Copies build/ to a folder of this process's own (removed when it exits); returns that folder. */
function snapshotBuild() {
  const parent = join(appDir, 'node_modules/.cache/lousho-serve');
  mkdirSync(parent, { recursive: true });
  // Copies left by a process that did not exit cleanly.
  for (const name of readdirSync(parent)) if (!isRunning(Number(name.split('-')[0]))) rmSync(join(parent, name), { recursive: true, force: true });
  const folder = join(parent, `${process.pid}-${Date.now()}`);
  cpSync(join(appDir, 'build'), folder, { recursive: true });
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

function isRunning(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Says once that build/ was replaced, and that this server goes on with the build it started with. */
function sayWhenRebuilt() {
  const watcher = watch(appDir, (_event, name) => {
    if (name !== 'build') return;
    console.log('  apps/sveltekit-demo/build changed: this server goes on serving the build it started with; restart it to serve the new one.');
    watcher.close();
  });
  watcher.unref();
}

function firstProto(header) {
  const first = String(header ?? '').split(',')[0].trim().toLowerCase();
  return first === 'https' ? 'https' : 'http';
}

function parsePort(value) {
  if (value === undefined || value.trim() === '') return 3001;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) {
    console.error(`PORT must be a number from 0 to 65535, not "${value}".`);
    process.exit(1);
  }
  return parsed;
}
