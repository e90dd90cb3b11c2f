import { nodeBuiltin } from '../runtime/node-builtins.js';

// The slices of node:net the proxy uses (the root entry type-checks without @types/node).
interface Socket {
  write(data: string | Uint8Array): unknown;
  end(data?: string): unknown;
  destroy(): unknown;
  pause(): unknown;
  resume(): unknown;
  pipe<T>(to: T): T;
  unshift(chunk: Uint8Array): unknown;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'error' | 'close' | 'connect', listener: (...args: unknown[]) => void): unknown;
  off(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  once(event: 'connect' | 'error', listener: (...args: unknown[]) => void): unknown;
}
interface Server {
  listen(path: string, callback: () => void): unknown;
  close(callback?: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}
interface Net {
  createServer(listener: (socket: Socket) => void): Server;
  connect(options: { host: string; port: number }): Socket;
}

/** Longest request head (request line and headers) the proxy reads before it refuses. */
const MAX_HEAD = 16 * 1024;

/** A running allow-list proxy: HTTP CONNECT and absolute-form HTTP requests, on a Unix socket. */
export interface AllowListProxy {
  readonly socketPath: string;
  close(): Promise<void>;
}

/**
 * Whether `host` is allowed: an exact name or address, or `*.example.com` for its subdomains
 * (not `example.com` itself). Names compare case-insensitively, without a trailing dot.
 */
export function hostAllowed(allow: readonly string[], host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '').replace(/^\[(.*)\]$/, '$1');
  return allow.some((rule) => {
    const r = rule.toLowerCase().replace(/\.$/, '');
    return r.startsWith('*.') ? name.endsWith(r.slice(1)) && name.length > r.length - 1 : name === r.replace(/^\[(.*)\]$/, '$1');
  });
}

/**
 * Starts the proxy a sandbox without a network reaches through its one door, a Unix socket bound
 * into it: each connection's first request names its destination (`CONNECT host:port`, or
 * `GET http://host:port/…`); an allowed host is connected to from this process, anything else
 * gets `403` and is closed. DNS is resolved here, never inside the sandbox.
 */
export async function startAllowListProxy(socketPath: string, allow: readonly string[]): Promise<AllowListProxy> {
  const net = nodeBuiltin<Net>('node:net', 'BubblewrapSandbox');
  const open = new Set<Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    let head = new Uint8Array(0);
    const onData = (chunk: Uint8Array) => {
      const joined = new Uint8Array(head.length + chunk.length);
      joined.set(head);
      joined.set(chunk, head.length);
      head = joined;
      const text = new TextDecoder('latin1').decode(head);
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD) refuse(client, 431, 'Request Header Fields Too Large');
        return;
      }
      client.off('data', onData);
      client.pause();
      route(net, client, text.slice(0, end + 4), head.subarray(end + 4), allow, open);
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.on('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function route(net: Net, client: Socket, head: string, rest: Uint8Array, allow: readonly string[], open: Set<Socket>): void {
  const [requestLine = ''] = head.split('\r\n', 1);
  const connect = /^CONNECT (\[[^\]]+\]|[^\s:]+):(\d{1,5}) HTTP\/1\.[01]$/i.exec(requestLine);
  const absolute = connect ? undefined : /^([A-Z]+) http:\/\/(\[[^\]]+\]|[^\s/:]+)(?::(\d{1,5}))?(\/\S*)? (HTTP\/1\.[01])$/.exec(requestLine);
  if (!connect && !absolute) return refuse(client, 400, 'Bad Request', 'only CONNECT host:port and absolute http:// requests go through this proxy');
  const host = (connect ? connect[1] : absolute![2])!;
  const port = Number(connect ? connect[2] : (absolute![3] ?? '80'));
  if (!hostAllowed(allow, host) || port < 1 || port > 65535) return refuse(client, 403, 'Forbidden', `${host} is not in the sandbox's network allow list`);
  const upstream = net.connect({ host: host.replace(/^\[(.*)\]$/, '$1'), port });
  open.add(upstream);
  upstream.on('close', () => open.delete(upstream));
  upstream.once('error', () => {
    refuse(client, 502, 'Bad Gateway', `could not reach ${host}:${port}`);
    upstream.destroy();
  });
  upstream.once('connect', () => {
    if (connect) client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    else upstream.write(new TextEncoder().encode(`${absolute![1]} ${absolute![4] ?? '/'} ${absolute![5]}\r\n${head.slice(requestLine.length + 2)}`));
    if (rest.length > 0) upstream.write(rest);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.resume();
  });
}

function refuse(client: Socket, status: number, reason: string, detail = reason): void {
  const body = `${detail}\n`;
  client.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
}

/**
 * The forwarder started inside the sandbox (with the Node that runs the agent): it listens on the
 * sandbox's own loopback and hands each connection to the proxy's Unix socket, then writes `ready`.
 * It names its built-ins through `process.getBuiltinModule`: the text is part of the package's root
 * entry, which a browser bundle must take without finding what reads as an import of a Node module.
 */
export const FORWARDER_SCRIPT = `
const net = process.getBuiltinModule('node:net');
const fs = process.getBuiltinModule('node:fs');
const [socketPath, port, ready] = process.argv.slice(1);
net.createServer((c) => {
  const u = net.connect(socketPath);
  c.pipe(u); u.pipe(c);
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
}).listen(Number(port), '127.0.0.1', () => fs.writeFileSync(ready, ''));
`;
