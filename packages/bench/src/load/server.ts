/**
 * A load-benchmark server, run in its own process (so the load generator's work does not count):
 *   node server.ts lousho    the demo agent (burst provider) behind createNodeListener()
 *   node server.ts lousho-gzip | lousho-br   the same with `compression: true` (the load client asks for that encoding)
 *   add `paced` to any lousho kind: the provider yields to the event loop before each delta
 *   node server.ts ai-fetch  streamText() + toUIMessageStreamResponse(), served by the same
 *                            Fetch-to-Node adapter (toNodeHandler) as Lousho
 *   node server.ts ai-node   streamText() + pipeUIMessageStreamToResponse(), the AI SDK's own Node path
 *   node server.ts http-floor the floor: a bare node:http listener answering every turn with the bytes
 *                            of one Lousho turn, recorded once at start (no agent, no parsing): what
 *                            the connections and writes of a turn cost any server on this machine
 * Listens on 127.0.0.1 only, on a free port, and sends `{ port }` to the parent over IPC.
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import { createAgentHandler } from '@lousho/core';
import { createNodeListener, toNodeHandler } from '@lousho/core/node';
import { createDemoAgent } from '@lousho/demo-agent';
import { burstLanguageModel, burstProvider } from './mock-models.js';
import { serveToParent } from './serve-child.js';

export type ServerKind = 'lousho' | 'lousho-gzip' | 'lousho-br' | 'ai-fetch' | 'ai-node' | 'http-floor';

async function readJson(req: IncomingMessage): Promise<{ input?: string }> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return JSON.parse(body) as { input?: string };
}

/**
 * The floor: one turn of the Lousho server recorded (its headers and body, as its handler writes them),
 * then written for every request in two writes, as a streaming server must at least: the first event
 * at once, the rest of the burst on the next turn of the event loop.
 */
async function floorListener(): Promise<RequestListener> {
  const agent = createDemoAgent({ provider: burstProvider(), toolDelayScale: 0 });
  const handler = createAgentHandler(agent, { keepAliveMs: 0 });
  const recorded = await handler(new Request('http://127.0.0.1/sessions/floor/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: 'Write the benchmark reply.' }) }));
  const headers: Record<string, string> = {};
  recorded.headers.forEach((value, name) => (headers[name] = value));
  const body = Buffer.from(await recorded.arrayBuffer());
  // The version frame and the first event.
  const firstEnd = body.indexOf('\n\n', body.indexOf('\n\n') + 2) + 2;
  const first = body.subarray(0, firstEnd);
  const rest = body.subarray(firstEnd);
  return (req, res) => {
    req.resume();
    req.once('end', () => {
      res.writeHead(200, headers);
      res.write(first);
      setImmediate(() => res.end(rest));
    });
  };
}

async function listener(kind: ServerKind, paced: boolean): Promise<RequestListener> {
  if (kind === 'http-floor') return floorListener();
  if (kind.startsWith('lousho')) {
    const agent = createDemoAgent({ provider: burstProvider(undefined, paced), toolDelayScale: 0 });
    // No keep-alive comments: a turn lasts well under the default 15 s anyway.
    return createNodeListener(agent, { keepAliveMs: 0, compression: kind !== 'lousho' }) as RequestListener;
  }
  const ai = await import('ai');
  const aiTest = await import('ai/test');
  if (kind === 'ai-fetch') {
    return toNodeHandler(async (request) => {
      const { input } = (await request.json()) as { input: string };
      const result = ai.streamText({ model: burstLanguageModel(aiTest) as any, prompt: input });
      return result.toUIMessageStreamResponse();
    }) as RequestListener;
  }
  return (req, res) => {
    void readJson(req).then(({ input }) => {
      const result = ai.streamText({ model: burstLanguageModel(aiTest) as any, prompt: input ?? '' });
      result.pipeUIMessageStreamToResponse(res);
    });
  };
}

const kind = process.argv[2] as ServerKind;
serveToParent(await listener(kind, process.argv[3] === 'paced'));
