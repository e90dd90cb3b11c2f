import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a server, whose network can go down: the faults the client
 * sees are real ones (connections that end in the middle of a response, connections refused),
 * not a `fetch` stand-in.
 */
export interface FlakyNetwork {
  /** The proxy's base URL (the target's, through the proxy). */
  url: string;
  /** Bytes the server sent through the proxy so far (all connections). */
  readonly received: number;
  /** The server's bytes so far on the first connection (a client's first request and its response). */
  readonly firstConnection: string;
  /**
   * Goes down once `bytes` more bytes came from the server: those reach the client, the rest of
   * that read does not, and every connection is cut. Resolves when it happened.
   */
  cutAfter(bytes: number): Promise<void>;
  /** Cuts every connection now; new ones are dropped until `up()`. */
  down(): void;
  up(): void;
  readonly isDown: boolean;
  close(): Promise<void>;
}

export async function flakyNetwork(target: string): Promise<FlakyNetwork> {
  const { port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  let isDown = false;
  let received = 0;
  let first: string | undefined;
  let budget = Infinity;
  let onCut: (() => void) | undefined;

  const down = (): void => {
    isDown = true;
    budget = Infinity;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    onCut?.();
    onCut = undefined;
  };

  const proxy = createServer((client) => {
    client.on('error', () => {});
    if (isDown) {
      // The host cannot be reached: the connection is dropped before a byte is read.
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(Number(targetPort), '127.0.0.1');
    upstream.on('error', () => {});
    const isFirst = first === undefined;
    if (isFirst) first = '';
    sockets.add(client).add(upstream);
    client.on('data', (data) => upstream.write(data));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.on('end', () => client.end());
    upstream.on('data', (data: Buffer) => {
      const part = data.length < budget ? data : data.subarray(0, budget);
      budget -= part.length;
      received += part.length;
      if (isFirst) first += part.toString('latin1');
      if (budget > 0) {
        client.write(part);
        return;
      }
      // The cut: what came before it arrives, then the connection is gone.
      sockets.delete(client);
      client.end(part, () => client.destroy());
      down();
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get received() {
      return received;
    },
    get firstConnection() {
      return first ?? '';
    },
    get isDown() {
      return isDown;
    },
    cutAfter(bytes) {
      budget = bytes;
      return new Promise<void>((resolve) => (onCut = resolve));
    },
    down,
    up() {
      isDown = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}
