import type { TestProject } from 'vitest/node';
import { startApp } from './app-process.js';
import { buildAppIfStale } from './build-app.js';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
  }
}

/** Builds the SvelteKit demo when needed, starts `node build` for the whole run, and stops it afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if ((await buildAppIfStale()) === 'built') console.log('[svelte-e2e] built the SvelteKit demo (apps/sveltekit-demo/build)');
  const app = await startApp();
  console.log(`[svelte-e2e] app at ${app.url}`);
  project.provide('appUrl', app.url);
  return () => app.stop();
}
