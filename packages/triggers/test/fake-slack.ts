import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Web API call the fake received. */
export interface SlackCall {
  method: string;
  authorization: string | undefined;
  contentType: string | undefined;
  args: Record<string, any>;
}

/**
 * A loopback stand-in for Slack's Web API, speaking its wire format: `POST /api/<method>` with a
 * bearer token and a JSON body, answered with HTTP 200 and `{ ok: true, ... }` or
 * `{ ok: false, error }`, or HTTP 429 with `Retry-After` when rate-limited.
 */
export class FakeSlack {
  readonly calls: SlackCall[] = [];
  /** Queue of answers to give instead of success: `{ status: 429 }` or `{ error: 'channel_not_found' }`. */
  readonly failures: ({ status: 429; retryAfter: number } | { error: string })[] = [];
  #server: Server | undefined;
  #ts = 1_700_000_100;

  constructor(readonly token: string) {}

  async start(): Promise<string> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const method = (req.url ?? '').replace(/^\/api\//, '');
        const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
          res.end(JSON.stringify(body));
        };
        if (req.method !== 'POST') return answer(405, { ok: false, error: 'method_not_allowed' });
        let args: Record<string, any>;
        try {
          args = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
        } catch {
          return answer(200, { ok: false, error: 'invalid_json' });
        }
        this.calls.push({ method, authorization: req.headers.authorization, contentType: req.headers['content-type'], args });
        if (req.headers.authorization !== `Bearer ${this.token}`) return answer(200, { ok: false, error: 'invalid_auth' });
        const failure = this.failures.shift();
        if (failure && 'status' in failure) return answer(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(failure.retryAfter) });
        if (failure) return answer(200, { ok: false, error: failure.error });
        if (method === 'chat.postMessage') {
          if (typeof args.channel !== 'string' || (typeof args.text !== 'string' && !Array.isArray(args.blocks))) return answer(200, { ok: false, error: 'invalid_arguments' });
          const ts = `${this.#ts++}.000200`;
          return answer(200, { ok: true, channel: args.channel, ts, message: { type: 'message', text: args.text, ts, thread_ts: args.thread_ts, bot_id: 'B1' } });
        }
        if (method === 'chat.update') {
          if (typeof args.channel !== 'string' || typeof args.ts !== 'string') return answer(200, { ok: false, error: 'invalid_arguments' });
          return answer(200, { ok: true, channel: args.channel, ts: args.ts, text: args.text });
        }
        return answer(200, { ok: false, error: 'unknown_method' });
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/api`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
