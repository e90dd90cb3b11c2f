import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A `node:http` server that a trigger starts and stops: `start()` resolves once bound, `close()` frees the port. */
export class TriggerServer {
  #server: Server | undefined;

  get address(): { port: number; host: string } | undefined {
    const address = this.#server?.address() as AddressInfo | null | undefined;
    return address ? { port: address.port, host: address.address } : undefined;
  }

  start(port: number, host: string, handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, onError: (error: unknown) => void): Promise<void> {
    const server = createServer((req, res) => {
      handle(req, res).catch((error: unknown) => {
        onError(error);
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify({ error: { code: 'LOUSHO_INTERNAL', message: 'The trigger failed to handle the request.' } }));
        } else res.destroy();
      });
    });
    this.#server = server;
    return new Promise((resolve, reject) => {
      const failed = (error: Error): void => {
        this.#server = undefined;
        reject(error);
      };
      server.once('error', failed);
      server.listen(port, host, () => {
        server.off('error', failed);
        resolve();
      });
    });
  }

  /** Stops accepting connections, lets requests in progress finish, and frees the port. */
  close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  }
}
