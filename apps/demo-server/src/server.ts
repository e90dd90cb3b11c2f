import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createNodeListener, toNodeHandler } from '@lousho/build-ai-agent/node';
import type { McpAgentServer } from '@lousho/build-ai-agent/mcp';
import { answerSessionList, SESSIONS_PATH, triggerInfo, type ListedSessionStore } from '@lousho/demo-agent/server';
import type { ModelInfo } from './model.js';
import { sendText, serveStaticApp, type StaticApp } from './static-files.js';

/** What the handler needs of an agent (any `createAgent()` agent). */
type HandlerAgent = Parameters<typeof createNodeListener>[0];

export const AGENT_PATH = '/api/agent';
/** The triage flow (served like an agent: the same routes below it). */
export const TRIAGE_PATH = '/api/triage';
export const INFO_PATH = '/api/info';
/** The agent as an MCP server (Streamable HTTP), beside its HTTP handler. */
export const MCP_PATH = '/api/mcp';

export interface DemoServerOptions {
  agent: HandlerAgent;
  /** The demo's triage flow, served at `/api/triage` (`createTriageAgent()`); left out, that path is a 404. */
  triage?: HandlerAgent;
  /** Which model answers; the UI reads it from `GET /api/info`. */
  model: ModelInfo;
  /** The built demos to serve (see apps.ts). */
  apps: readonly StaticApp[];
  /** The agent's session store: `GET /api/sessions` lists its sessions (the demos' Sessions panel). */
  sessions?: ListedSessionStore;
  /** The triggers wired in (`startDemoTriggers`): `GET /api/info` says where the webhook listens. */
  triggers?: { webhookUrl: string; cron?: string };
  /** The agent as an MCP server (`serveMcp(agent)`), mounted at `/api/mcp`; left out, that path is a 404. */
  mcp?: McpAgentServer;
  /** Unexpected failures (the browser only ever gets a bare 500). */
  onError?: (error: unknown) => void;
}

/**
 * The demo server: the agent's HTTP handler at `/api/agent` (and the triage flow's at `/api/triage`), the agent as an MCP server at `/api/mcp`, what the UI needs to know about the
 * model at `/api/info`, the sessions at `/api/sessions` (newest first), and the built demos as static files. Plain `node:http`, no framework.
 */
export function createDemoServer(options: DemoServerOptions): Server {
  const onError = options.onError ?? ((error: unknown) => console.error('[demo-server]', error));
  const agentListener = createNodeListener(options.agent, { basePath: AGENT_PATH, onError });
  const triageListener = options.triage && createNodeListener(options.triage, { basePath: TRIAGE_PATH, onError });
  const mcp = options.mcp;
  const mcpListener = mcp && toNodeHandler((request: Request) => mcp.fetch(request));
  // Most specific mount first, so `/vue/` is tried before the catch-all `/`.
  const apps = [...options.apps].sort((a, b) => b.mountPath.length - a.mountPath.length);
  const info = JSON.stringify({
    model: options.model,
    apps: apps.map(({ name, mountPath }) => ({ name, path: mountPath })),
    ...(options.triggers ? { triggers: triggerInfo(options.triggers) } : {}),
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const pathname = pathOf(req);
    if (pathname === undefined) return sendText(res, 400, 'Bad request.');
    if (pathname === AGENT_PATH || pathname.startsWith(`${AGENT_PATH}/`)) return agentListener(req, res);
    if (triageListener && (pathname === TRIAGE_PATH || pathname.startsWith(`${TRIAGE_PATH}/`))) return triageListener(req, res);
    if (mcpListener && pathname === MCP_PATH) return mcpListener(req, res);
    if (pathname === INFO_PATH) {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(info);
      return;
    }
    if (pathname === SESSIONS_PATH && options.sessions) {
      const answer = await answerSessionList(req.method ?? 'GET', options.sessions);
      res.writeHead(answer.status, answer.headers);
      res.end(req.method === 'HEAD' ? undefined : answer.body);
      return;
    }
    if (pathname.startsWith('/api/')) return sendText(res, 404, 'Not found.');
    for (const app of apps) {
      if (await serveStaticApp(app, req, res, pathname)) return;
    }
    sendText(res, 404, 'Not found.');
  };

  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      onError(error);
      if (!res.headersSent) sendText(res, 500, 'The demo server failed on this request.');
      else res.destroy();
    });
  });
}

/** The request's path, with `.` and `..` segments already resolved by the URL parser. */
function pathOf(req: IncomingMessage): string | undefined {
  try {
    return new URL(req.url ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}
