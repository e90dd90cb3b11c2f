/**
 * The rendering benchmark's local server (127.0.0.1 only): the built pages, and the fixed bytes of
 * both libraries. A reply is written a few events at a time on a fixed clock, cut at event
 * boundaries, with the same number of events per write for both wire formats.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import type { RenderFixtures } from './fixtures.js';

export interface Pacing {
  /** Events per write (default 10). */
  eventsPerWrite: number;
  /** Milliseconds between writes (default 5). */
  intervalMs: number;
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

/** Splits an SSE body after each blank line (the end of an event), keeping the bytes as they are. */
export function sseEvents(body: string): string[] {
  const events: string[] = [];
  let from = 0;
  for (let at = body.indexOf('\n\n'); at >= 0; at = body.indexOf('\n\n', from)) {
    events.push(body.slice(from, at + 2));
    from = at + 2;
  }
  if (from < body.length) events.push(body.slice(from));
  return events;
}

export async function startReplayServer(distDir: string, fixtures: RenderFixtures, pacing: Pacing): Promise<{ server: Server; origin: string }> {
  const replies = { lousho: sseEvents(fixtures.lousho.reply), aiSdk: sseEvents(fixtures.aiSdk.reply) };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, type: string, body: string | Buffer): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    const stream = (events: string[], headers: Record<string, string>): void => {
      req.resume();
      res.writeHead(200, { ...headers, 'cache-control': 'no-store' });
      let next = 0;
      const timer = setInterval(() => {
        const group = events.slice(next, next + pacing.eventsPerWrite).join('');
        next += pacing.eventsPerWrite;
        if (group) res.write(group);
        if (next >= events.length) {
          clearInterval(timer);
          res.end();
        }
      }, pacing.intervalMs);
      res.on('close', () => clearInterval(timer));
    };
    if (req.method === 'GET' && url.pathname === '/api/lousho/sessions/bench') return send(200, 'application/json; charset=utf-8', fixtures.lousho.session);
    if (req.method === 'POST' && url.pathname === '/api/lousho/sessions/bench/messages') return stream(replies.lousho, fixtures.lousho.replyHeaders);
    if (req.method === 'POST' && url.pathname === '/api/chat') return stream(replies.aiSdk, fixtures.aiSdk.replyHeaders);
    if (req.method === 'GET' && url.pathname === '/fixtures/ai-messages.json') return send(200, TYPES['.json']!, fixtures.aiSdk.messages);
    if (req.method === 'GET') {
      const file = normalize(join(distDir, url.pathname));
      if (!file.startsWith(distDir)) return send(404, 'text/plain', 'not found');
      void readFile(file).then(
        (body) => send(200, TYPES[extname(file)] ?? 'application/octet-stream', body),
        () => send(404, 'text/plain', 'not found'),
      );
      return;
    }
    send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const address = server.address();
  return { server, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}
