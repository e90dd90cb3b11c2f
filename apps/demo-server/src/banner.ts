import type { StaticApp } from './static-files.js';

/**
 * What the demo server prints once it listens: the first line names the root (scripts and tests
 * read it), then every demo it serves, and how to start the SvelteKit demo, which has its own server.
 */
export function startBanner(origin: string, model: string, apps: readonly Pick<StaticApp, 'name' | 'mountPath'>[]): string[] {
  const byPath = [...apps].sort((a, b) => a.mountPath.length - b.mountPath.length);
  const width = Math.max('SvelteKit demo'.length, ...byPath.map((app) => app.name.length)) + 2;
  return [
    `Lousho demo running at ${origin}/ (model: ${model})`,
    ...byPath.map((app) => `  ${app.name.padEnd(width)}${origin}${app.mountPath}`),
    `  ${'SvelteKit demo'.padEnd(width)}npm run demo:svelte (its own server, at http://127.0.0.1:3001/)`,
  ];
}
