import { failStarted, freePort, startProcess, type RunningServer } from 'e2e/kit';
import { APP_DIR } from './sveltekit-demo.js';

/**
 * Starts the built app as a child process, exactly as the README says (`node build`), on a free
 * port of 127.0.0.1 (adapter-node needs it up front: ORIGIN names it), always with the offline demo
 * model; resolves once a page is served.
 */
export async function startApp(): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = await startProcess({
    name: 'The app',
    args: ['build'],
    cwd: APP_DIR,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ORIGIN: url, LOUSHO_MODEL: '', NODE_ENV: 'production' },
    readyWhen: /Listening on/,
  });
  try {
    const page = await fetch(url);
    if (!page.ok) throw new Error(`GET / answered ${page.status}.`);
  } catch (error) {
    return failStarted(started, error);
  }
  return { url, stop: () => started.stop() };
}
