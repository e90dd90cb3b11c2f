import { ERROR_CODES, type AgentInput, type ReplayStore } from '@lousho/core';
import { defineChannel } from './define-channel.js';
import { errorJson } from './mount-channels.js';
import { methodNotPost, outcomeResponse, parseJson } from './http-channel.js';
import type { Channel, ChannelOutbound } from './types.js';
import { createWebhookAuthenticator, type WebhookAuth, type WebhookAuthResult, type WebhookRequest } from './webhook-auth.js';

/** Where a webhook writes why it refused a request. Default: `console`. */
export interface WebhookLogger {
  /** One refusal: the reason (never a secret), and the request's method and URL. */
  warn(message: string, details?: Record<string, unknown>): void;
}

/** Options of `webhookChannel()`: its auth (required), how a payload becomes input, and where the outcome goes. */
export interface WebhookChannelOptions<TBody extends Uint8Array = Uint8Array> {
  /** How callers prove who they are (required: a webhook is reachable by anyone who knows the URL). */
  auth: WebhookAuth<TBody>;
  /** Default `'webhook'`. */
  name?: string;
  /** Default `/<name>`. */
  path?: string;
  /** The conversation a payload belongs to. Default: its `conversationId` field, else a new one. */
  conversationId?: (payload: unknown) => string | undefined;
  /** What the agent is sent. Default: the payload's `input` field if it is text, else the payload as JSON text. */
  input?: (payload: unknown) => AgentInput;
  /**
   * Send the outcome somewhere else (a callback URL, a queue): the webhook then answers
   * `202 { accepted: true, conversationId }` at once. Without it, the answer is the outcome.
   */
  deliver?: (outbound: ChannelOutbound) => void | Promise<void>;
  logger?: WebhookLogger;
  /** Signed requests remembered in memory for replay protection (with `timestampHeader`). Default 10,000. */
  replayCacheSize?: number;
  /** Where accepted signatures are remembered instead (`store.replays` of a SqliteStore or PostgresStore: survives restarts, shared by processes). */
  replayStore?: ReplayStore;
}

/** A webhook channel; `authenticate()` is its auth check on its own (what `WebhookTriggerAdapter` uses). */
export interface WebhookChannel<TBody extends Uint8Array = Uint8Array> extends Channel {
  /** Checks one request; logs the reason of a refusal at `warn` (never a secret or signature). */
  authenticate(req: WebhookRequest<TBody>): Promise<WebhookAuthResult>;
}

/** The answer to any request that fails authentication: it never says which check failed. */
export function unauthorizedResponse(): Response {
  return new Response(JSON.stringify({ error: 'Unauthorized' }), { status: 401, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/** The default input of a webhook payload. */
export function webhookInput(payload: unknown): AgentInput {
  const input = (payload as { input?: unknown } | null)?.input;
  if (typeof input === 'string' && input.trim() !== '') return input;
  return typeof payload === 'string' ? payload : JSON.stringify(payload);
}

/**
 * An inbound webhook as a channel: authenticated (HMAC of the raw body, a bearer token or your own
 * check), JSON-parsed, then run in the payload's conversation.
 */
export function webhookChannel<TBody extends Uint8Array = Uint8Array>(options: WebhookChannelOptions<TBody>): WebhookChannel<TBody> {
  const check = createWebhookAuthenticator(options?.auth, {
    ...(options.replayCacheSize !== undefined ? { replayCacheSize: options.replayCacheSize } : {}),
    ...(options.replayStore !== undefined ? { replayStore: options.replayStore } : {}),
  });
  const logger = options.logger ?? console;
  const name = options.name ?? 'webhook';

  const authenticate = async (req: WebhookRequest<TBody>): Promise<WebhookAuthResult> => {
    const result = await check(req);
    if (!result.ok) logger.warn(`${name}: refused a request (${result.reason})`, { method: req.method, url: req.url });
    return result;
  };

  const channel = defineChannel({
    name,
    ...(options.path !== undefined ? { path: options.path } : {}),
    async receive(req) {
      const refusal = methodNotPost(req.request.method);
      if (refusal) return { respond: refusal };
      // Senders label JSON bodies in many ways (text/plain, +json): any body that parses is taken.
      const verdict = await authenticate({ method: req.request.method, url: req.url.href, headers: req.headers, rawBody: req.rawBody as TBody });
      if (!verdict.ok) return { respond: unauthorizedResponse() };
      const parsed = parseJson(req.rawBody);
      if (!parsed.ok) return { respond: errorJson(400, ERROR_CODES.LOUSHO_INVALID_INPUT, parsed.message) };
      const payload = parsed.value;
      const own = (payload as { conversationId?: unknown } | null)?.conversationId;
      const conversationId = options.conversationId ? options.conversationId(payload) : typeof own === 'string' && own !== '' ? own : undefined;
      const inbound = {
        type: 'message' as const,
        conversationId: conversationId ?? crypto.randomUUID(),
        input: (options.input ?? webhookInput)(payload),
        metadata: { webhook: name },
      };
      if (!options.deliver) return { inbound, reply: outcomeResponse };
      return {
        inbound,
        respond: new Response(JSON.stringify({ accepted: true, conversationId: inbound.conversationId }), { status: 202, headers: { 'content-type': 'application/json; charset=utf-8' } }),
      };
    },
    ...(options.deliver ? { deliver: options.deliver } : {}),
  });
  return Object.freeze({ ...channel, authenticate });
}
