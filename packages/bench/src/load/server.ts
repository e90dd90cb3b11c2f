/**
 * A load-benchmark server, run in its own process (so the load generator's work does not count):
 *   node server.ts <kind> [pace] [deltas] [latency]
 * kinds:
 *   lousho                   the demo agent behind createNodeListener()
 *   lousho-nowindow          the same with `writeWindowMs: 0` (every burst of events written at once)
 *   lousho-gzip | lousho-br  the same with `compression: true` (the load client asks for that encoding)
 *   ai-fetch                 streamText() + toUIMessageStreamResponse(), served by the same
 *                            Fetch-to-Node adapter (toNodeHandler) as Lousho
 *   ai-node                  streamText() + pipeUIMessageStreamToResponse(), the AI SDK's own Node path
 *   http-floor               the floor: a bare node:http listener answering every turn with the bytes
 *                            of one Lousho turn, recorded once at start (no agent, no parsing): what
 *                            the connections and writes of a turn cost any server on this machine.
 *                            Paced, it writes the recorded turn one event per write, at the same pace.
 * pace: burst (default), tick or model:<min>-<max> (pace.ts; `paced` is the older name of tick).
 * deltas: per reply (default DELTAS). latency: stamp deltas and record event → write times (latency.ts).
 * Listens on 127.0.0.1 only, on a free port, and sends `{ port }` to the parent over IPC.
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import { createAgentHandler } from '@lousho/core';
import { createNodeListener, toNodeHandler } from '@lousho/build-ai-agent/node';
import { createDemoAgent } from '@lousho/demo-agent';
import { recordWriteLatency } from './latency.js';
import { burstLanguageModel, burstProvider, DELTAS } from './mock-models.js';
import { pacer, parsePace, type Pace } from './pace.js';
import { serveToParent, type ChildQuestions } from './serve-child.js';

export type ServerKind = 'lousho' | 'lousho-nowindow' | 'lousho-gzip' | 'lousho-br' | 'ai-fetch' | 'ai-node' | 'http-floor';

async function readJson(req: IncomingMessage): Promise<{ input?: string }> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return JSON.parse(body) as { input?: string };
}

/** One Lousho turn as its handler writes it: the headers, and the body chunk by chunk (one per write). */
async function recordTurn(pace: Pace, deltas: number): Promise<{ headers: Record<string, string>; chunks: Uint8Array[] }> {
  const agent = createDemoAgent({ provider: burstProvider(deltas, pace.kind === 'burst' ? pace : { kind: 'tick' }), toolDelayScale: 0 });
  // No write window: a paced turn is recorded one event per chunk, as a reader that keeps up gets it.
  const handler = createAgentHandler(agent, { keepAliveMs: 0, writeWindowMs: 0 });
  const recorded = await handler(new Request('http://127.0.0.1/sessions/floor/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: 'Write the benchmark reply.' }) }));
  const headers: Record<string, string> = {};
  recorded.headers.forEach((value, name) => (headers[name] = value));
  const chunks: Uint8Array[] = [];
  const reader = recorded.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  return { headers, chunks };
}

/**
 * The floor. Burst: one recorded turn written for every request in two writes, as a streaming
 * server must at least: the first event at once, the rest on the next turn of the event loop.
 * Paced: the turn recorded with a paced model (one event per chunk), written one chunk per write,
 * each event chunk after the pace's wait: the same bytes and writes as Lousho paced, with no agent.
 */
async function floorListener(pace: Pace, deltas: number): Promise<RequestListener> {
  const { headers, chunks } = await recordTurn(pace, deltas);
  if (pace.kind === 'burst') {
    const body = Buffer.concat(chunks);
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
  let streams = 0;
  return (req, res) => {
    req.resume();
    req.once('end', () => {
      const wait = pacer(pace, streams++);
      res.writeHead(200, headers);
      void (async () => {
        for (let i = 0; i < chunks.length; i++) {
          // Version frame and run.start at once, like the server; a wait before each later event.
          if (i >= 2) await wait.next();
          if (res.destroyed) return;
          res.write(chunks[i]);
        }
        res.end();
      })();
    });
  };
}

async function listener(kind: ServerKind, pace: Pace, deltas: number, stamped: boolean): Promise<RequestListener> {
  if (kind === 'http-floor') return floorListener(pace, deltas);
  if (kind.startsWith('lousho')) {
    const agent = createDemoAgent({ provider: burstProvider(deltas, pace, stamped), toolDelayScale: 0 });
    // No keep-alive comments: a turn lasts well under the default 15 s anyway.
    const compression = kind === 'lousho-gzip' || kind === 'lousho-br';
    return createNodeListener(agent, { keepAliveMs: 0, compression, ...(kind === 'lousho-nowindow' ? { writeWindowMs: 0 } : {}) }) as RequestListener;
  }
  const ai = await import('ai');
  const aiTest = await import('ai/test');
  if (kind === 'ai-fetch') {
    return toNodeHandler(async (request) => {
      const { input } = (await request.json()) as { input: string };
      const result = ai.streamText({ model: burstLanguageModel(aiTest, deltas, pace, stamped) as any, prompt: input });
      return result.toUIMessageStreamResponse();
    }) as RequestListener;
  }
  return (req, res) => {
    void readJson(req).then(({ input }) => {
      const result = ai.streamText({ model: burstLanguageModel(aiTest, deltas, pace, stamped) as any, prompt: input ?? '' });
      result.pipeUIMessageStreamToResponse(res);
    });
  };
}

const [kind, paceArg, deltasArg, latencyArg] = process.argv.slice(2);
const pace = parsePace(paceArg === 'paced' ? 'tick' : paceArg);
const stamped = latencyArg === 'latency';
const questions: ChildQuestions = {};
if (stamped) {
  const latency = recordWriteLatency();
  questions.latency = () => latency.take();
}
serveToParent(await listener(kind as ServerKind, pace, deltasArg ? Number(deltasArg) : DELTAS, stamped), questions);
