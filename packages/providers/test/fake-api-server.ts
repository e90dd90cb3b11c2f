/**
 * A real node:http server on 127.0.0.1 that plays back scripted provider answers and records
 * every request it got, so tests exercise the providers' real fetch + SSE path end to end.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body. */
  body: any;
}

/** One scripted answer. */
export type Reply =
  /** A 200 event stream; each string is written separately (so chunk boundaries are exercised). */
  | { sse: string[]; status?: number; headers?: Record<string, string> }
  /** A JSON error (or any JSON) with this status. */
  | { status: number; json: unknown; headers?: Record<string, string> }
  /** A plain text body with this status (e.g. an HTML page from a proxy). */
  | { status: number; text: string; headers?: Record<string, string> }
  /** Writes these pieces of an event stream, then destroys the socket (a cut connection). */
  | { cutAfter: string[] }
  /** Writes these pieces and then keeps the connection open until the client goes away. */
  | { hangAfter: string[] };

export interface FakeApiServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  /** Resolves when the client closed a connection the server was holding open (hangAfter). */
  clientClosed: Promise<void>;
  close(): Promise<void>;
}

/** Serves `replies` in order, one per request; the last one repeats when they run out. */
export async function startFakeApi(replies: Reply[] | ((request: RecordedRequest, index: number) => Reply)): Promise<FakeApiServer> {
  const requests: RecordedRequest[] = [];
  let signalClosed!: () => void;
  const clientClosed = new Promise<void>((resolve) => (signalClosed = resolve));
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: raw ? JSON.parse(raw) : undefined,
    };
    const index = requests.push(recorded) - 1;
    const reply = typeof replies === 'function' ? replies(recorded, index) : (replies[Math.min(index, replies.length - 1)] as Reply);
    await play(reply, res, signalClosed);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    clientClosed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function play(reply: Reply, res: ServerResponse, signalClosed: () => void): Promise<void> {
  const streamHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' };
  if ('sse' in reply) {
    res.writeHead(reply.status ?? 200, { ...streamHeaders, ...reply.headers });
    for (const piece of reply.sse) await write(res, piece);
    res.end();
  } else if ('json' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.json));
  } else if ('text' in reply) {
    res.writeHead(reply.status, { 'content-type': 'text/html', ...reply.headers });
    res.end(reply.text);
  } else if ('cutAfter' in reply) {
    res.writeHead(200, streamHeaders);
    for (const piece of reply.cutAfter) await write(res, piece);
    res.socket?.destroy();
  } else {
    res.writeHead(200, streamHeaders);
    res.on('close', () => signalClosed());
    for (const piece of reply.hangAfter) await write(res, piece);
  }
}

function write(res: ServerResponse, piece: string): Promise<void> {
  return new Promise((resolve, reject) => res.write(piece, (err) => (err ? reject(err) : resolve())));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
