import { ANONYMOUS_PRINCIPAL, ERROR_CODES } from '@lousho/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { connectionServer, type ServedAgent } from './connection-server.js';

interface HttpSession {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  principal: string;
  lastUsed: number;
}

/**
 * Streamable HTTP, as a Fetch handler: one MCP server and transport per `Mcp-Session-Id`, owned by
 * the principal `authorize` named when it was opened (another principal's id is unknown to a
 * caller: 404). Sessions are bounded in number and closed when idle.
 */
export class HttpSessions {
  readonly #sessions = new Map<string, HttpSession>();

  constructor(readonly served: ServedAgent) {}

  async handle(request: Request): Promise<Response> {
    const { settings } = this.served;
    let principal: string | null | undefined;
    try {
      principal = settings.authorize ? await settings.authorize(request) : ANONYMOUS_PRINCIPAL;
    } catch (error) {
      settings.onError(error);
      return rpcError(500, -32603, 'The server could not check this request.', ERROR_CODES.LOUSHO_INTERNAL);
    }
    if (typeof principal !== 'string' || principal === '') {
      return rpcError(401, -32001, 'This request is not authorized; send valid credentials.', ERROR_CODES.LOUSHO_UNAUTHORIZED);
    }
    const now = Date.now();
    this.#closeIdle(now);
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = this.#sessions.get(sessionId);
      if (!session || session.principal !== principal) return rpcError(404, -32001, 'Session not found.', ERROR_CODES.LOUSHO_SESSION_NOT_FOUND);
      session.lastUsed = now;
      return session.transport.handleRequest(request);
    }
    return this.#open(request, principal, now);
  }

  /** A request without a session id: an `initialize` opens one (anything else is refused by the transport). */
  async #open(request: Request, principal: string, now: number): Promise<Response> {
    const { settings } = this.served;
    if (this.#sessions.size >= settings.maxSessions) await this.#closeOldest();
    const server = connectionServer(this.served, principal);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      maxRequestBodySize: settings.maxMessageBytes,
      onsessioninitialized: (id) => void this.#sessions.set(id, { server, transport, principal, lastUsed: now }),
      onsessionclosed: (id) => void this.#sessions.delete(id),
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (transport.sessionId === undefined || !this.#sessions.has(transport.sessionId)) await server.close();
    return response;
  }

  #closeIdle(now: number): void {
    for (const [id, session] of this.#sessions) {
      if (now - session.lastUsed > this.served.settings.sessionIdleMs) this.#drop(id, session);
    }
  }

  async #closeOldest(): Promise<void> {
    let oldest: [string, HttpSession] | undefined;
    for (const entry of this.#sessions) if (!oldest || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry;
    if (oldest) await this.#drop(oldest[0], oldest[1]);
  }

  #drop(id: string, session: HttpSession): Promise<void> {
    this.#sessions.delete(id);
    return session.server.close().catch((error: unknown) => this.served.settings.onError(error));
  }

  async close(): Promise<void> {
    await Promise.all([...this.#sessions].map(([id, session]) => this.#drop(id, session)));
  }
}

/** A JSON-RPC error body (what an MCP client reads), with the stable code in `data.code`. */
function rpcError(status: number, code: number, message: string, stableCode: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message, data: { code: stableCode } }, id: null }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}
