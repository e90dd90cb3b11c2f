import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import type { DemoPage } from './page-driver.js';

/** Where the demo's agent runs: behind the HTTP server, or in the page itself. */
export type DemoMode = 'http' | 'page';

/** What the shared scenarios need to know about one demo. */
export interface DemoTarget {
  /** Prefix of the lines the tests print (`e2e`, `vue-e2e`, ...). */
  label: string;
  /** The modes the demo offers; the shared scenarios run once per mode (the HTTP-only ones when `http` is here). */
  modes: readonly DemoMode[];
  /** The demo's address in `mode`, on the server at `serverUrl` (by default the run's server). */
  url(mode: DemoMode, serverUrl?: string): string;
  /** The server's agent has the MCP notes tools (the demo server starts the notes server; the SvelteKit demo's own server does not). */
  mcpNotes?: boolean;
  /** The demo has the thread sidebar and its server the webhook trigger (`GET /api/info` says where). */
  sessionsPanel?: boolean;
  /** The demo has the thread sidebar (in every mode it offers). */
  threadSidebar?: boolean;
  /** Folder for the screenshots (not committed). */
  screenshotsDir: string;
  /**
   * Resolves once the page's own scripts have taken over, after a load or a reload (SvelteKit:
   * hydration; before it, the server's HTML shows but typing does nothing). Default: nothing to wait for.
   */
  takenOver?(page: Page): Promise<void>;
  /** Checks only this demo makes, run at the end of a shared scenario (before its page-error check). */
  extraChecks?: {
    safety?(demo: DemoPage, mode: DemoMode): Promise<void>;
  };
}

/** The address the run's global setup started (see `demoGlobalSetup`); only inside tests. */
export const runServerUrl = (): string => inject('demoServerUrl');

/** `path` (with `?mode=page` in page mode) on the given server, the run's by default. */
export function demoUrl(path: string, mode: DemoMode, serverUrl: string = runServerUrl()): string {
  const url = new URL(path, serverUrl);
  if (mode === 'page') url.searchParams.set('mode', 'page');
  return url.href;
}
