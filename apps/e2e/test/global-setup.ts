import type { TestProject } from 'vitest/node';
import { buildReactDemoIfStale } from './build-demo.js';
import { startDemoServer } from './demo-server-process.js';

declare module 'vitest' {
  export interface ProvidedContext {
    demoUrl: string;
  }
}

/** Builds the React demo when needed, starts the demo server for the whole run, and stops it afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const build = await buildReactDemoIfStale();
  if (build === 'built') console.log('[e2e] built the React demo (apps/react-demo/dist)');
  const server = await startDemoServer();
  console.log(`[e2e] demo server at ${server.url}`);
  project.provide('demoUrl', server.url);
  return () => server.stop();
}
