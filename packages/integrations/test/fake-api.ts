import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
  rawBody: string;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
}

/**
 * A loopback HTTP server standing in for a service's REST API: it records every request exactly as
 * it arrived and answers with what `route` returns for it.
 */
export async function startFakeApi(route: (request: SeenRequest, url: string) => FakeReply | Promise<FakeReply>) {
  const requests: SeenRequest[] = [];
  let url = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const parsed = new URL(req.url ?? '/', url);
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      const seen: SeenRequest = { method: req.method ?? '', path: parsed.pathname, query: parsed.searchParams, headers: req.headers, body, rawBody };
      requests.push(seen);
      const reply = await route(seen, url);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json; charset=utf-8', ...reply.headers });
      res.end(reply.json === undefined ? '' : JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs a defined tool as the agent loop would, with a context. */
export function ctx(signal?: AbortSignal) {
  return { toolCallId: 'call_test', messages: [], ...(signal ? { abortSignal: signal } : {}) };
}
