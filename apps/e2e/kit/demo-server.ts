import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failStarted, startProcess, type StartedProcess } from './child-process.js';
import { DEMO_SERVER_DIR } from './paths.js';

/** The webhook trigger's bearer token on servers the tests start (the webhook scenario posts with it). */
export const E2E_WEBHOOK_TOKEN = 'e2e-webhook-token';

/**
 * How the demo model names its calls in the tests (the server's `LOUSHO_DEMO_CALL_IDS`, the page's
 * `localStorage['lousho:demo:call-ids']`): numbered per response, `call_0` in every turn, as an
 * OpenAI-compatible server may. Every scenario then runs on ids that come again, which the library
 * must never confuse (the long-chat scenario checks each turn's card).
 */
export const E2E_CALL_IDS = 'per-response';
/** The page's switch (`DEMO_CALL_IDS_STORAGE_KEY` of @lousho/demo-agent). */
export const DEMO_CALL_IDS_STORAGE_KEY = 'lousho:demo:call-ids';

/** A server the tests started; also what a global setup serves the run from. */
export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

export interface RunningDemoServer extends RunningServer {
  /** The port it listens on (to start a replacement on the same address). */
  port: number;
  /** A graceful stop (SIGTERM, SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** `kill -9`: no shutdown code runs, as in a crash. Resolves with the signal that ended the process. */
  kill(): Promise<NodeJS.Signals | null>;
}

export interface DemoServerOptions {
  /** 0 (the default) takes a free port. */
  port?: number;
  /**
   * Where the server keeps its SQLite file (DEMO_DATA_DIR). Default: a fresh temporary folder,
   * removed when the server ends, so sessions of earlier runs never leak into this one.
   */
  dataDir?: string;
}

/**
 * Starts apps/demo-server (which serves the React demo at / and the Vue demo at /vue/) as a child
 * process on 127.0.0.1, by default on a free port (PORT=0: the server prints the address it got),
 * and resolves once it answers. Always the offline demo model, its call ids numbered per response (`E2E_CALL_IDS`).
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<RunningDemoServer> {
  const ownDataDir = options.dataDir === undefined ? mkdtempSync(join(tmpdir(), 'lousho-e2e-data-')) : undefined;
  const removeOwnDataDir = (): void => {
    if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
  };
  let started: StartedProcess;
  try {
    started = await startProcess({
      name: 'The demo server',
      args: ['--import', 'tsx', '--conditions=@lousho/source', 'src/main.ts'],
      cwd: DEMO_SERVER_DIR,
      env: { ...process.env, PORT: String(options.port ?? 0), HOST: '127.0.0.1', LOUSHO_MODEL: '', NODE_ENV: 'production', DEMO_WEBHOOK_PORT: '0', DEMO_WEBHOOK_TOKEN: E2E_WEBHOOK_TOKEN, LOUSHO_DEMO_CALL_IDS: E2E_CALL_IDS, DEMO_DATA_DIR: options.dataDir ?? ownDataDir },
      readyWhen: /running at (http:\/\/127\.0\.0\.1:\d+\/)/,
    });
  } catch (error) {
    removeOwnDataDir();
    throw error;
  }
  const url = started.ready[1]!;
  try {
    const info = await fetch(new URL('/api/info', url));
    if (!info.ok) throw new Error(`GET /api/info answered ${info.status}.`);
  } catch (error) {
    try {
      return await failStarted(started, error);
    } finally {
      removeOwnDataDir();
    }
  }
  return {
    url,
    port: Number(new URL(url).port),
    async stop() {
      await started.stop();
      removeOwnDataDir();
    },
    async kill() {
      const signal = await started.kill();
      removeOwnDataDir();
      return signal;
    },
  };
}
