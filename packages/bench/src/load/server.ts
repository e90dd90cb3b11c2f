/**
 * A load-benchmark server, run in its own process (so the load generator's work does not count):
 *   node server.ts lousho    the demo agent (burst provider) behind createNodeListener()
 *   node server.ts lousho-gzip | lousho-br   the same with `compression: true` (the load client asks for that encoding)
 *   add `paced` to any lousho kind: the provider yields to the event loop before each delta
 *   node server.ts ai-fetch  streamText() + toUIMessageStreamResponse(), served by the same
 *                            Fetch-to-Node adapter (toNodeHandler) as Lousho
 *   node server.ts ai-node   streamText() + pipeUIMessageStreamToResponse(), the AI SDK's own Node path
 * Listens on 127.0.0.1 only, on a free port, and sends `{ port }` to the parent over IPC.
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import { createNodeListener, toNodeHandler } from '@lousho/core/node';
import { createDemoAgent } from '@lousho/demo-agent';
import { burstLanguageModel, burstProvider } from './mock-models.js';
import { serveToParent } from './serve-child.js';

export type ServerKind = 'lousho' | 'lousho-gzip' | 'lousho-br' | 'ai-fetch' | 'ai-node';

async function readJson(req: IncomingMessage): Promise<{ input?: string }> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return JSON.parse(body) as { input?: string };
}

async function listener(kind: ServerKind, paced: boolean): Promise<RequestListener> {
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
