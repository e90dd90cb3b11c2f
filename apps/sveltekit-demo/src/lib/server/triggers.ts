// The webhook trigger (and, with DEMO_CRON, the schedule) of the SvelteKit demo, started once by the
// server's `init` hook (src/hooks.server.ts): the same triggers as the demo server's, on this app's agent.
import { env } from '$env/dynamic/private';
import { startDemoTriggers, SVELTEKIT_DEMO_WEBHOOK_PORT, triggerInfo, triggerSettings, triggerStartFailure, type DemoTriggers } from '@lousho/demo-agent/server';
import { agent } from './agent.js';

let running: DemoTriggers | undefined;

/**
 * Starts the triggers and prints how to call the webhook. The webhook binds the app's `HOST`
 * (127.0.0.1 by default, as server.js) on `DEMO_WEBHOOK_PORT` (default 8788, beside the demo
 * server's 8787). A taken port or a bad setting ends the process with one line, as the demo server does.
 */
export async function startTriggers(): Promise<void> {
  if (running) return;
  try {
    running = await startDemoTriggers(agent, triggerSettings(env, env['HOST']?.trim() || '127.0.0.1', SVELTEKIT_DEMO_WEBHOOK_PORT));
  } catch (error) {
    console.error(triggerStartFailure(error));
    process.exit(1);
  }
  for (const line of running.banner) console.log(line);
  // Stopped with the process: server.js exits on SIGINT/SIGTERM, and the port goes with it.
}

/** What `GET /api/info` says of the triggers (never the token); null until they run. */
export const triggersInfo = (): ReturnType<typeof triggerInfo> | null => (running ? triggerInfo(running) : null);
