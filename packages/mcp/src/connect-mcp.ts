import { ERROR_CODES, SDKError, type McpConnectOptions, type McpServers, type McpToolSource, type ToolDescriptor } from '@lousho/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ServerConnection } from './connection.js';
import { checkLimits } from './limits.js';
import { checkServer, configKey, DEFAULT_TIMEOUT_MS, type CheckedServer } from './server-config.js';

/** What `connectMcp()` resolves to. */
export interface McpConnection {
  /** Every tool of every server, keyed `<server>__<tool>`: pass it as `createAgent({ tools })`. */
  tools: Record<string, ToolDescriptor>;
  /** Each server's SDK client, by server name (for resources, prompts, ...; the current one after a reconnect). */
  clients: Record<string, Client>;
  /** Closes every connection (stdio servers are stopped). */
  close(): Promise<void>;
}

function checkServers(servers: McpServers, options: McpConnectOptions): CheckedServer[] {
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'MCP servers must be an object of server configs by name.', {
      hint: "e.g. { notes: { command: 'node', args: ['notes-server.js'] }, docs: { url: 'https://example.com/mcp' } }",
    });
  }
  checkLimits(options);
  return Object.entries(servers).map(([name, config]) => checkServer(name, config, options.timeoutMs ?? DEFAULT_TIMEOUT_MS));
}

/** All tools of these connections; a name two servers' tools would share is refused. */
function mergeTools(connections: readonly ServerConnection[]): Record<string, ToolDescriptor> {
  const tools: Record<string, ToolDescriptor> = {};
  const owner = new Map<string, string>();
  for (const connection of connections) {
    for (const [name, tool] of Object.entries(connection.tools)) {
      const earlier = owner.get(name);
      if (earlier !== undefined) {
        throw new SDKError(ERROR_CODES.LOUSHO_DUPLICATE_TOOL, `MCP servers '${earlier}' and '${connection.server.name}' both have a tool that would be called '${name}'.`, {
          hint: 'Rename one of the servers in the config (server names prefix their tools).',
        });
      }
      owner.set(name, connection.server.name);
      tools[name] = tool;
    }
  }
  return tools;
}

/** Opens every connection at once; when one fails, the others are closed and its error is thrown. */
async function openAll(servers: readonly CheckedServer[], options: McpConnectOptions): Promise<ServerConnection[]> {
  const settled = await Promise.allSettled(servers.map((server) => ServerConnection.open(server, options)));
  const failure = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  const opened = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (failure) {
    await Promise.all(opened.map((connection) => connection.close()));
    throw failure.reason;
  }
  return opened;
}

/**
 * Connects MCP servers (stdio `command`, or HTTP `url` with a fallback to HTTP+SSE) and loads their
 * tools, named `<server>__<tool>`. Fails with `LOUSHO_MCP_CONNECT_FAILED` naming the server that
 * could not be reached (and its command or URL, never its headers).
 */
export async function connectMcp(servers: McpServers, options: McpConnectOptions = {}): Promise<McpConnection> {
  const connections = await openAll(checkServers(servers, options), options);
  let tools: Record<string, ToolDescriptor>;
  try {
    tools = mergeTools(connections);
  } catch (error) {
    await Promise.all(connections.map((connection) => connection.close()));
    throw error;
  }
  const clients = {} as Record<string, Client>;
  for (const connection of connections) {
    Object.defineProperty(clients, connection.server.name, {
      enumerable: true,
      get: () => connection.connectedClient,
    });
  }
  return {
    tools,
    clients,
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}

/**
 * The connector `createAgent({ mcpServers })` uses: connections are opened on the first run that
 * names a server, reused by the next runs (per name and config), and closed by `agent.close()`.
 */
export function createMcpToolSource(options: McpConnectOptions = {}): McpToolSource {
  const open = new Map<string, Promise<ServerConnection>>();
  return {
    async tools(servers) {
      const wanted = checkServers(servers, options).map((server) => {
        const key = configKey(server);
        let connection = open.get(key);
        if (!connection) {
          connection = ServerConnection.open(server, options);
          open.set(key, connection);
          // A server that failed to connect is tried again on the next run.
          connection.catch(() => open.get(key) === connection && open.delete(key));
        }
        return connection;
      });
      return mergeTools(await Promise.all(wanted));
    },
    async close() {
      const all = [...open.values()];
      open.clear();
      await Promise.all(all.map((connection) => connection.then((c) => c.close(), () => undefined)));
    },
  };
}
