import { createAgentHandler } from '@lousho/core';
import { mountChannels, type ChannelsHandler } from '@lousho/node';
import { agentOf, CHANNELS_PATH, HEALTH_PATH, type AgentModule } from './agent-module.js';

/** The context a Workers runtime passes as the third argument of `fetch`. */
export interface WorkerContext {
  waitUntil?(promise: Promise<unknown>): void;
}

export interface WorkerHandler {
  fetch(request: Request, env?: Record<string, unknown>, context?: WorkerContext): Promise<Response>;
}

/**
 * The Fetch handler `lousho build --target workers` exports: the agent's HTTP handler at
 * `basePath`, its channels at `/channels`, and `GET /healthz`. No Node built-ins. The agent (or
 * the function of `env` that makes it) is built once, on the first request.
 */
export function createWorker(mod: AgentModule, options: { basePath: string }): WorkerHandler {
  let ready: Promise<{ handle: (request: Request) => Promise<Response>; channels: ChannelsHandler | undefined }> | undefined;
  const setup = (env: Record<string, unknown>) =>
    (ready ??= agentOf(mod, env).then((agent) => ({
      handle: createAgentHandler(agent, { ...mod.handlerOptions, basePath: options.basePath }),
      channels: mod.channels?.length ? mountChannels(agent, mod.channels, { basePath: CHANNELS_PATH }) : undefined,
    })).catch((error: unknown) => {
      // A failed setup (a missing secret in `env`) is tried again on the next request.
      ready = undefined;
      throw error;
    }));
  return {
    async fetch(request, env = {}, context = {}) {
      const { pathname } = new URL(request.url);
      if (pathname === HEALTH_PATH) return Response.json({ status: 'ok' });
      const { handle, channels } = await setup(env);
      if (channels && (pathname === CHANNELS_PATH || pathname.startsWith(`${CHANNELS_PATH}/`))) return channels(request, context);
      return handle(request);
    },
  };
}
