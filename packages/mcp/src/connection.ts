import type { McpConnectOptions, ToolDescriptor } from '@lousho/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listAllTools, toolsFromList, type McpToolCaller } from './load-tools.js';
import { checkLimits } from './limits.js';
import { McpConnectError } from './errors.js';
import type { CheckedServer } from './server-config.js';
import { connectClient, CONNECT_TIMEOUT_MS } from './transport/connect-client.js';

/**
 * One server, kept connected: its tools are listed once, and a call after the connection was lost
 * (a crash, a closed HTTP session) connects again first.
 */
export class ServerConnection implements McpToolCaller {
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #closed = false;
  tools: Record<string, ToolDescriptor> = {};

  constructor(
    readonly server: CheckedServer,
    readonly options: McpConnectOptions,
  ) {}

  /** Connects and lists the tools; rejects with `McpConnectError` naming the server. */
  static async open(server: CheckedServer, options: McpConnectOptions): Promise<ServerConnection> {
    const connection = new ServerConnection(server, options);
    const client = await connection.client();
    let list: unknown[];
    try {
      list = await listAllTools(client, Math.max(server.timeoutMs, CONNECT_TIMEOUT_MS), checkLimits(options).maxTools);
    } catch (error) {
      await connection.close();
      throw new McpConnectError(server.name, server.target, `listing its tools failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    try {
      connection.tools = toolsFromList(connection, server.name, list, { ...options, timeoutMs: server.timeoutMs });
    } catch (error) {
      await connection.close();
      throw error;
    }
    return connection;
  }

  /** The connected client, connecting (again) when there is none. */
  client(): Promise<Client> {
    if (this.#client) return Promise.resolve(this.#client);
    if (this.#closed) return Promise.reject(new McpConnectError(this.server.name, this.server.target, 'the connection was closed.'));
    if (!this.#connecting) {
      const logger = this.options.logger;
      const connecting = connectClient(this.server, (line) => logger?.warn(`[mcp:${this.server.name}] ${line}`), checkLimits(this.options).maxResultBytes).then(
        (client) => {
          if (this.#closed) {
            void client.close().catch(() => {});
            throw new McpConnectError(this.server.name, this.server.target, 'the connection was closed.');
          }
          client.onclose = () => {
            if (this.#client === client) this.#client = undefined;
          };
          this.#client = client;
          return client;
        },
      );
      this.#connecting = connecting;
      void connecting.then(
        () => (this.#connecting = undefined),
        () => (this.#connecting = undefined),
      );
    }
    return this.#connecting;
  }

  request: Client['request'] = (async (request: Parameters<Client['request']>[0], schema: Parameters<Client['request']>[1], options?: Parameters<Client['request']>[2]) => {
    const client = await this.client();
    return client.request(request, schema, options);
  }) as Client['request'];

  connectionLost(): void {
    const client = this.#client;
    this.#client = undefined;
    // A server that is still running but stopped answering is ended before the next connect.
    void client?.close().catch(() => {});
  }

  get connectedClient(): Client | undefined {
    return this.#client;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => {});
  }
}
