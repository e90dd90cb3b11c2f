import type { TestProject } from 'vitest/node';
import { buildVueDemoIfStale } from './build-demo.js';
import { startDemoServer } from './demo-server-process.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The demo server of this run (its root; the Vue demo is at `vue/` below it). */
    vueDemoServerUrl: string;
  }
}

/** Builds the Vue demo when needed, starts a demo server of its own for the run, and stops it afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const build = await buildVueDemoIfStale();
  if (build === 'built') console.log('[vue-e2e] built the Vue demo (apps/vue-demo/dist)');
  const server = await startDemoServer();
  console.log(`[vue-e2e] demo server at ${server.url} (the Vue demo at ${server.url}vue/)`);
  project.provide('vueDemoServerUrl', server.url);
  return () => server.stop();
}
