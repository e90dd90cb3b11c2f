import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@lousho/node/node';
import { createAgUiHandler, type AgUiAgent, type AgUiHandlerOptions } from '../../src/index.js';

export interface AgUiServer {
  url: string;
  close(): Promise<void>;
}

/** A real node:http server on 127.0.0.1 (a free port) serving `agent` through the AG-UI handler. */
export async function serveAgUi(agent: AgUiAgent, options?: AgUiHandlerOptions): Promise<AgUiServer> {
  const listener = toNodeHandler(createAgUiHandler(agent, options));
  const server: Server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/agui`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
