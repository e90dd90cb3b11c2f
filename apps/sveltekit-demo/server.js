// Starts the built SvelteKit demo (`npm start`, after `npm run build`): adapter-node's request
// handler on a plain node:http server of our own, so the address is 127.0.0.1 by default (HOST to
// change, PORT too: 3001 by default, beside the demo server's 3000), a taken port is one clear line
// instead of a stack, and Ctrl-C stops at once.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';

const host = process.env.HOST?.trim() || '127.0.0.1';
const port = parsePort(process.env.PORT);

if (!existsSync(new URL('./build/handler.js', import.meta.url))) {
  console.error('The SvelteKit demo is not built yet: run `npm run build` in apps/sveltekit-demo (or `npm run demo:svelte` at the root).');
  process.exit(1);
}

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
  console.log('  The React and Vue demos: npm run demo (http://127.0.0.1:3000/ and /vue/)');
  app = import('./build/handler.js');
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
