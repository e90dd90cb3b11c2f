import { E2E_CALL_IDS, E2E_WEBHOOK_TOKEN, failStarted, freePort, startProcess, type RunningServer } from 'e2e/kit';
import { APP_DIR } from './sveltekit-demo.js';

/**
 * Starts the built app as a child process, exactly as `npm run demo:svelte` does (`node server.js`:
 * adapter-node's handler on the app's own server), on a free port of 127.0.0.1 (HOST left to its
 * default), always with the offline demo model (its call ids numbered per response: `E2E_CALL_IDS`) and its webhook trigger on a free port with the tests'
 * token; resolves once a page is served.
 */
export async function startApp(): Promise<RunningServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), LOUSHO_MODEL: '', NODE_ENV: 'production', DEMO_WEBHOOK_PORT: '0', DEMO_WEBHOOK_TOKEN: E2E_WEBHOOK_TOKEN, LOUSHO_DEMO_CALL_IDS: E2E_CALL_IDS };
  delete env['HOST'];
  delete env['ORIGIN'];
  const started = await startProcess({
    name: 'The app',
    args: ['server.js'],
    cwd: APP_DIR,
    env,
    readyWhen: /running at (http:\/\/127\.0\.0\.1:\d+\/)/,
  });
  const url = started.ready[1]!;
  try {
    const page = await fetch(url);
    if (!page.ok) throw new Error(`GET / answered ${page.status}.`);
  } catch (error) {
    return failStarted(started, error);
  }
  return { url, stop: () => started.stop() };
}
