import { portBeside, SVELTEKIT_DEMO_PORT } from '@lousho/demo-agent';
import type { StaticApp } from './static-files.js';

/**
 * What the demo server prints once it listens: the first line names the root (scripts and tests
 * read it), then every demo it serves, and how to start the SvelteKit demo, which has its own server.
 */
export function startBanner(origin: string, model: string, apps: readonly Pick<StaticApp, 'name' | 'mountPath'>[], port: number | string = new URL(origin).port): string[] {
  const byPath = [...apps].sort((a, b) => a.mountPath.length - b.mountPath.length);
  const width = Math.max('SvelteKit demo'.length, ...byPath.map((app) => app.name.length)) + 2;
  // The SvelteKit demo beside this server (the port its pages link to), started with PORT if not its default.
  // `port` is the one asked for (PORT=0, any free port, pairs with nothing: the default is said).
  const sveltekitPort = portBeside('demo-server', port) ?? SVELTEKIT_DEMO_PORT;
  const startSveltekit = sveltekitPort === SVELTEKIT_DEMO_PORT ? 'npm run demo:svelte' : `PORT=${sveltekitPort} npm run demo:svelte`;
  return [
    `Lousho demo running at ${origin}/ (model: ${model})`,
    ...byPath.map((app) => `  ${app.name.padEnd(width)}${origin}${app.mountPath}`),
    `  ${'SvelteKit demo'.padEnd(width)}${startSveltekit} (its own server, at http://127.0.0.1:${sveltekitPort}/)`,
  ];
}
