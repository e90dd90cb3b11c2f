import type { HandlerAgent as ClientAgent } from '@lousho/core';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { connectionServer, type ServedAgent } from './connection-server.js';
import { HttpSessions } from './http-sessions.js';
import { settingsOf, type ServeMcpOptions } from './options.js';
import { resolveServedTools } from './served-tools.js';

/** An agent served over MCP: mount `fetch` for Streamable HTTP, or serve a connection with `serveStdio()` / `connect()`. */
export interface McpAgentServer {
  /**
   * Streamable HTTP as a Fetch handler `(Request) => Promise<Response>`: mount it at a path of your
   * server (next to `createAgentHandler()`), or in Node with `toNodeHandler()`. `authorize` is asked
   * on every request.
   */
  fetch(request: Request): Promise<Response>;
  /**
   * Serves MCP on this process's stdin and stdout (Node only). Resolves when the connection ends:
   * the client closed stdin, sent a message over `maxMessageBytes`, or `close()` was called.
   */
  serveStdio(): Promise<void>;
  /** Serves one connection over any transport of the MCP SDK (stdio, in-memory, your own), as `principal` when given. */
  connect(transport: Transport, options?: { principal?: string }): Promise<void>;
  /** Closes every connection and HTTP session (runs in flight are stopped by their clients going away). */
  close(): Promise<void>;
}

/**
 * Serves an agent as an MCP server on the official SDK: a tool that takes a `prompt` and answers
 * with the agent's final text (progress notifications while it runs), plus any `tools` you list.
 * Approvals and questions are asked through MCP elicitation when the client supports it, and
 * refused with `LOUSHO_MCP_ELICITATION_UNSUPPORTED` when it does not. See docs/mcp.md.
 */
export function serveMcp(agent: ClientAgent & { name?: string; description?: string }, options: ServeMcpOptions = {}): McpAgentServer {
  const settings = settingsOf(agent, options);
  const served: ServedAgent = { agent, settings, tools: resolveServedTools(settings.tools, settings.toolName) };
  const http = new HttpSessions(served);
  const connected = new Set<Server>();

  /** Serves one connection; resolves once connected, with a promise of its end. */
  const open = async (transport: Transport, principal: string | undefined): Promise<{ closed: Promise<void> }> => {
    const server = connectionServer(served, principal);
    connected.add(server);
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => {
        connected.delete(server);
        resolve();
      };
    });
    await server.connect(transport);
    return { closed };
  };
  const connect = async (transport: Transport, connectOptions: { principal?: string } = {}): Promise<void> => {
    await open(transport, connectOptions.principal);
  };

  return {
    fetch: (request) => http.handle(request),
    connect,
    async serveStdio() {
      const { stdioServerTransport } = await import('#stdio-server');
      const { closed } = await open(stdioServerTransport(settings.maxMessageBytes), undefined);
      await closed;
    },
    async close() {
      await Promise.all([http.close(), ...[...connected].map((server) => server.close())]);
    },
  };
}
