import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_CODES, createAgentHandler } from '@lousho/core';
import { mountChannels } from '@lousho/node';
import { toNodeHandler } from '@lousho/node/node';
import { agentOf, CHANNELS_PATH, HEALTH_PATH, turnSessionId, type AgentModule } from './agent-module.js';

export interface NodeServerOptions {
  basePath: string;
  /** Default: `PORT`, else 3000. */
  port?: number;
  /** Default: `HOST`, else `0.0.0.0`. */
  host?: string;
  /** How long running turns get to finish after SIGTERM. Default: `LOUSHO_SHUTDOWN_TIMEOUT_MS`, else 25,000. */
  shutdownTimeoutMs?: number;
  /** Install SIGTERM / SIGINT handlers (default true). */
  handleSignals?: boolean;
  log?: (line: string) => void;
}

export interface RunningServer {
  server: Server;
  url: string;
  /** Drains: refuses new turns, lets running ones finish (or stops them at the deadline), then closes. */
  shutdown(): Promise<void>;
}

const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });

/**
 * The standalone server `lousho build --target node` produces: the agent's HTTP handler at
 * `basePath`, its channels at `/channels`, and `GET /healthz`. On SIGTERM it stops taking new
 * turns, lets running turns finish, stops those still running at the deadline (their state is
 * checkpointed as stopped), and exits.
 */
export async function startNodeServer(mod: AgentModule, options: NodeServerOptions): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => console.log(line));
  const agent = await agentOf(mod, process.env);
  const handler = createAgentHandler(agent, { ...mod.handlerOptions, basePath: options.basePath });
  const channels = mod.channels?.length ? mountChannels(agent, mod.channels, { basePath: CHANNELS_PATH, onError: (error) => log(`lousho: channel error: ${String(error)}`) }) : undefined;
  const serveAgent = toNodeHandler(handler);
  const serveChannels = channels ? toNodeHandler(channels) : undefined;
  const turns = new Set<string>();
  let draining = false;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://server.invalid');
    const reply = ({ status, body }: { status: number; body: string }, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(body);
    };
    if (url.pathname === HEALTH_PATH) {
      reply(draining ? json(503, { status: 'draining' }) : json(200, { status: 'ok' }));
      return;
    }
    const turn = turnSessionId(req.method ?? 'GET', url.pathname, options.basePath);
    const startsWork = turn !== undefined || (serveChannels !== undefined && url.pathname.startsWith(`${CHANNELS_PATH}/`));
    if (draining && startsWork) {
      req.resume();
      reply(json(503, { error: { code: ERROR_CODES.LOUSHO_SHUTTING_DOWN, message: 'The server is shutting down; retry on another instance.' } }), { connection: 'close', 'retry-after': '1' });
      return;
    }
    if (turn !== undefined) turns.add(turn);
    if (serveChannels && (url.pathname === CHANNELS_PATH || url.pathname.startsWith(`${CHANNELS_PATH}/`))) serveChannels(req, res);
    else serveAgent(req, res);
  });

  const port = options.port ?? Number(process.env.PORT ?? 3000);
  const host = options.host ?? process.env.HOST ?? '0.0.0.0';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  log(`lousho: serving the agent at ${url}${options.basePath} (health: ${HEALTH_PATH})`);

  const running = () => [...turns].filter((id) => agent.sessions.get(id)?.status === 'running');
  const waitUntil = async (done: () => boolean, ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return true;
  };

  let closing: Promise<void> | undefined;
  const shutdown = (): Promise<void> =>
    (closing ??= (async () => {
      draining = true;
      const timeoutMs = options.shutdownTimeoutMs ?? Number(process.env.LOUSHO_SHUTDOWN_TIMEOUT_MS ?? 25_000);
      const active = running();
      log(`lousho: shutting down; ${active.length} running turn(s) get ${timeoutMs} ms to finish`);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (!(await waitUntil(() => running().length === 0, timeoutMs))) {
        const late = running();
        log(`lousho: stopping ${late.length} turn(s) still running; their state is checkpointed as stopped`);
        for (const id of late) agent.sessions.stop(id);
        await waitUntil(() => running().length === 0, 5_000);
      }
      await channels?.idle();
      // Streams of finished turns end on their own; give them a moment, then close what is left.
      await waitUntil(() => false, 200);
      server.closeAllConnections();
      await closed;
      log('lousho: stopped');
    })());

  if (options.handleSignals !== false) {
    const onSignal = (signal: NodeJS.Signals) => {
      log(`lousho: ${signal} received`);
      void shutdown().then(() => process.exit(0));
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  return { server, url, shutdown };
}
