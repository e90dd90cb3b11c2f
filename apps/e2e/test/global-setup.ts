import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  // A fresh SQLite file per run, so sessions of earlier runs never leak into this one.
  const dataDir = mkdtempSync(join(tmpdir(), 'lousho-e2e-data-'));
  const server = await startDemoServer({ dataDir });
  console.log(`[e2e] demo server at ${server.url}`);
  project.provide('demoUrl', server.url);
  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
