/**
 * The load generator: opens `sessions` concurrent turns against a server on loopback, reads every
 * SSE stream to the end and checks it end to end. Bounded in count (exactly `sessions` requests,
 * no retries) and in time (every request still open at `deadlineMs` is destroyed and counted as
 * failed), so it always stops by itself.
 */
import { setMaxListeners } from 'node:events';
import { Agent, request, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { parseEventStream } from '@lousho/build-ai-agent';
import { createParser } from 'eventsource-parser';
import { DELTAS, expectedText, withoutStamps } from './mock-models.js';

export type Wire = 'lousho' | 'ai-sdk';
/** The encoding to ask for (`Accept-Encoding`); the server must answer with it. */
export type Encoding = 'gzip' | 'br' | undefined;

export interface LoadResult {
  completed: number;
  failed: number;
  /** Streams whose events were lost, duplicated or reordered, or whose text differs (subset of failed). */
  corrupt: number;
  firstError: string | undefined;
  events: number;
  /** Body bytes received from the sockets (compressed, when the stream was). */
  wireBytes: number;
  wallMs: number;
  eventsPerSecond: number;
  /** Time to first event, per completed session (ms). */
  ttfe: number[];
}

interface SessionOutcome {
  events: number;
  ttfe: number;
}

class StreamCheckError extends Error {}

/** What every stream's text must add up to: `deltas` deltas, with their latency stamps (if any) removed. */
interface TextCheck {
  expected: string;
  stamped: boolean;
}

function post(agent: Agent, port: number, path: string, body: string, signal: AbortSignal, encoding: Encoding): Promise<IncomingMessage> {
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  if (encoding) headers['accept-encoding'] = encoding;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, signal, headers },
      resolve,
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Lousho: `parseEventStream` over the socket; seq must run 1, 2, 3… with no gap, and the deltas must
 * add up. A reader that fell behind may get deltas that waited merged (`fromSeq`..`seq`): such an
 * event counts for each event it stands for, so `events` is the same however the stream was batched.
 */
async function readLousho(res: AsyncIterable<Uint8Array>, start: number, check: TextCheck): Promise<SessionOutcome> {
  let ttfe = -1;
  let expectedSeq = 1;
  let text = '';
  let events = 0;
  let last = '';
  for await (const event of parseEventStream(res)) {
    if (ttfe < 0) ttfe = performance.now() - start;
    const from = (event as { fromSeq?: number }).fromSeq ?? event.seq;
    if (from !== expectedSeq) throw new StreamCheckError(`seq ${from} where ${expectedSeq} was expected`);
    events += event.seq - from + 1;
    expectedSeq = event.seq + 1;
    if (event.type === 'text.delta') text += event.delta;
    last = event.type;
  }
  if (last !== 'run.done') throw new StreamCheckError(`the stream ended after '${last}', not 'run.done'`);
  checkText(text, check);
  return { events, ttfe };
}

/** AI SDK: UI message chunks (no sequence numbers): the deltas must add up, and the stream must end with `finish` and `[DONE]`. */
async function readAiSdk(res: Readable, start: number, check: TextCheck): Promise<SessionOutcome> {
  let ttfe = -1;
  let text = '';
  let events = 0;
  let last = '';
  let done = false;
  let failure: Error | undefined;
  const parser = createParser({
    onEvent: ({ data }) => {
      if (ttfe < 0) ttfe = performance.now() - start;
      if (data === '[DONE]') {
        done = true;
        return;
      }
      if (done) failure ??= new StreamCheckError('a chunk after [DONE]');
      events++;
      const chunk = JSON.parse(data) as { type: string; delta?: string };
      if (chunk.type === 'text-delta') text += chunk.delta;
      last = chunk.type;
    },
  });
  res.setEncoding('utf8');
  for await (const piece of res as AsyncIterable<string>) parser.feed(piece);
  if (failure) throw failure;
  if (!done || last !== 'finish') throw new StreamCheckError(`the stream ended after '${last}'${done ? '' : ' without [DONE]'}`);
  checkText(text, check);
  return { events, ttfe };
}

function checkText(text: string, { expected, stamped }: TextCheck): void {
  const got = stamped ? withoutStamps(text) : text;
  if (got !== expected) throw new StreamCheckError(`text of ${got.length} characters differs from the ${expected.length} expected`);
}

/** The body as the server sent it, decompressed when it was; counts the bytes that came over the socket. */
function decodedBody(res: IncomingMessage, encoding: Encoding, count: (bytes: number) => void): Readable {
  const got = res.headers['content-encoding'];
  if ((got ?? undefined) !== encoding) throw new Error(`content-encoding ${String(got)} where ${String(encoding)} was asked for`);
  res.on('data', (chunk: Buffer) => count(chunk.length));
  if (!encoding) return res;
  const decompress = encoding === 'gzip' ? createGunzip() : createBrotliDecompress();
  res.on('error', (error) => decompress.destroy(error));
  return res.pipe(decompress);
}

export interface LoadOptions {
  port: number;
  wire: Wire;
  sessions: number;
  deadlineMs: number;
  label: string;
  encoding?: Encoding;
  /** Deltas per reply (default DELTAS). */
  deltas?: number;
  /** The server stamps its deltas (latency runs): compared without the stamps. */
  stamped?: boolean;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { port, wire, sessions, deadlineMs, label, encoding } = options;
  const check: TextCheck = { expected: expectedText(options.deltas ?? DELTAS), stamped: options.stamped ?? false };
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const deadline = AbortSignal.timeout(deadlineMs);
  setMaxListeners(sessions + 10, deadline); // one listener per open request, by design
  // One body for both servers: Lousho's handler reads `input`, the AI SDK servers read it too.
  const body = JSON.stringify({ input: 'Write the benchmark reply.', messages: [{ role: 'user', parts: [{ type: 'text', text: 'Write the benchmark reply.' }] }] });
  const result: LoadResult = { completed: 0, failed: 0, corrupt: 0, firstError: undefined, events: 0, wireBytes: 0, wallMs: 0, eventsPerSecond: 0, ttfe: [] };
  const one = async (i: number): Promise<void> => {
    const start = performance.now();
    try {
      const path = wire === 'lousho' ? `/sessions/${label}_${i}/messages` : '/api/chat';
      const res = await post(agent, port, path, body, deadline, encoding);
      if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
      let bytes = 0;
      const stream = decodedBody(res, encoding, (n) => (bytes += n));
      const outcome = wire === 'lousho' ? await readLousho(stream, start, check) : await readAiSdk(stream, start, check);
      result.wireBytes += bytes;
      result.completed++;
      result.events += outcome.events;
      result.ttfe.push(outcome.ttfe);
    } catch (error) {
      result.failed++;
      if (error instanceof StreamCheckError) result.corrupt++;
      result.firstError ??= error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: sessions }, (_, i) => one(i)));
  result.wallMs = performance.now() - start;
  result.eventsPerSecond = (result.events / result.wallMs) * 1000;
  agent.destroy();
  return result;
}
