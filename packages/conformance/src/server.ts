import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createAgentHandler, type ClientAgent } from '@lousho/core';
import { toNodeHandler } from '@lousho/core/node';

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
  close(): Promise<void>;
}

/** A real node:http server on 127.0.0.1 (a free port) serving `agent` through the HTTP handler. */
export async function serveAgent(agent: ClientAgent): Promise<AgentServer> {
  const listener = toNodeHandler(createAgentHandler(agent));
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
