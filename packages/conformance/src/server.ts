import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ClientAgent } from '@lousho/client';
import { createAgentHandler } from '@lousho/core';
import { toNodeHandler } from '@lousho/node/node';

export interface LoggedRequest {
  method: string;
  path: string;
}

export interface AgentServer {
  url: string;
  /** Every request the server received, in order. */
  requests: LoggedRequest[];
  /** The network goes down: every open connection is cut, and new ones are dropped until `up()`. */
  down(): void;
  up(): void;
  /**
   * Plays a restart of the server's process on the same address: from now on `agent` answers, and
   * every open connection is cut (as when a process dies).
   */
  restart(agent: ClientAgent): void;
  close(): Promise<void>;
}

/** A real node:http server on 127.0.0.1 (a free port) serving `agent` through the HTTP handler. */
export async function serveAgent(agent: ClientAgent): Promise<AgentServer> {
  let listener = toNodeHandler(createAgentHandler(agent));
  const requests: LoggedRequest[] = [];
  const sockets = new Set<Socket>();
  let isDown = false;
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0]! });
    listener(req, res);
  });
  // A real fault: the client's connections end in the middle of a response, new ones are reset.
  server.on('connection', (socket: Socket) => {
    if (isDown) return socket.resetAndDestroy();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    down() {
      isDown = true;
      for (const socket of sockets) socket.destroy();
    },
    up() {
      isDown = false;
    },
    restart(next) {
      listener = toNodeHandler(createAgentHandler(next));
      server.closeAllConnections();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
