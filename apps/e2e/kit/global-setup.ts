import type { TestProject } from 'vitest/node';
import type { RunningServer } from './demo-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server of this run (its root), started by the project's global setup. */
    demoServerUrl: string;
  }
}

export interface DemoGlobalSetup {
  /** Prefix of the lines printed (`e2e`, `vue-e2e`, ...). */
  label: string;
  /** Builds the demo when needed; says what it built, or nothing when the build was fresh. */
  build(): Promise<string | undefined>;
  /** Starts the server the tests of the run share. */
  start(): Promise<RunningServer>;
}

/**
 * A vitest global setup: builds the demo when needed, starts its server for the whole run, gives
 * the tests its address (`inject('demoServerUrl')`), and stops it at the end.
 */
export function demoGlobalSetup(options: DemoGlobalSetup): (project: TestProject) => Promise<() => Promise<void>> {
  return async (project) => {
    const built = await options.build();
    if (built) console.log(`[${options.label}] built ${built}`);
    const server = await options.start();
    console.log(`[${options.label}] server at ${server.url}`);
    project.provide('demoServerUrl', server.url);
    return () => server.stop();
  };
}
