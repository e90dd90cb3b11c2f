import { ERROR_CODES, SDKError, type ReplayStore } from '@lousho/core';
import { concatBytes, equalBytes, equalSecrets, fromHex, hmac, toHex, utf8 } from './constant-time.js';
import { MemoryReplayStore } from './replay-store.js';

/** A request as webhook authentication sees it: lower-cased header names and the exact bytes received. */
export interface WebhookRequest<TBody extends Uint8Array = Uint8Array> {
  method: string;
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body exactly as received (a `Buffer` in Node). */
  rawBody: TBody;
}

/** HMAC of the raw body (GitHub / Shopify / Stripe style). */
export interface HmacWebhookAuth {
  type: 'hmac';
  secret: string;
  /** Header carrying the signature. Default `x-signature-256`. */
  header?: string;
  /** Default `sha256`. */
  algorithm?: 'sha256' | 'sha1';
  /** Text before the hex digest. Default: the algorithm's name and `=` (`sha256=`, or `sha1=` with sha1); `''` for a bare digest. */
  prefix?: string;
  /** With it, the signed payload is `${timestamp}.${body}` and old requests are refused. */
  timestampHeader?: string;
  /** How far the timestamp (Unix seconds) may be from now. Default 300. */
  toleranceSeconds?: number;
}

/** A shared token: `Authorization: Bearer <token>`. */
export interface BearerWebhookAuth {
  type: 'bearer';
  token: string;
}

/** Your own check: return (or resolve to) true to accept. */
export interface CustomWebhookAuth<TBody extends Uint8Array = Uint8Array> {
  type: 'custom';
  /** Resolves to true to accept the request; anything else answers the generic 401. */
  verify: (req: WebhookRequest<TBody>) => boolean | Promise<boolean>;
}

/** How a webhook caller proves who it is: an HMAC signature of the raw body, a bearer token, or your own check. */
export type WebhookAuth<TBody extends Uint8Array = Uint8Array> = HmacWebhookAuth | BearerWebhookAuth | CustomWebhookAuth<TBody>;

/** Why a request was refused: safe to log (never a secret, token or signature). */
export type WebhookAuthResult = { ok: true } | { ok: false; reason: string };

/** Options of the webhook verifier: where it remembers signed requests for replay protection. */
export interface WebhookAuthOptions {
  /** Signed requests remembered in memory for replay protection (with `timestampHeader`). Default 10,000. */
  replayCacheSize?: number;
  /**
   * Where accepted signatures are remembered instead of this process's memory: `store.replays` of a
   * `SqliteStore` or `PostgresStore` survives restarts and is shared by every process on the store.
   */
  replayStore?: ReplayStore;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const DEFAULT_REPLAY_CACHE_SIZE = 10_000;

function invalid(message: string, hint: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, message, { hint });
}

/** Checks an `auth` option once, up front: an empty secret would let anyone sign. */
export function checkWebhookAuth(auth: unknown): asserts auth is WebhookAuth<any> {
  if (typeof auth !== 'object' || auth === null) throw invalid('auth must be an object with a `type`.', "Use { type: 'hmac', secret }, { type: 'bearer', token } or { type: 'custom', verify }.");
  const value = auth as Record<string, unknown>;
  switch (value.type) {
    case 'hmac': {
      if (typeof value.secret !== 'string' || value.secret === '') {
        throw invalid('auth.secret is empty: anyone could sign requests with an empty key.', 'Set the secret (e.g. from WEBHOOK_SECRET) before starting the webhook.');
      }
      if (value.algorithm !== undefined && value.algorithm !== 'sha256' && value.algorithm !== 'sha1') {
        throw invalid(`auth.algorithm must be 'sha256' or 'sha1', got ${JSON.stringify(value.algorithm)}.`, "Leave it out for 'sha256'.");
      }
      for (const key of ['header', 'timestampHeader', 'prefix'] as const) {
        if (value[key] !== undefined && typeof value[key] !== 'string') throw invalid(`auth.${key} must be a string.`, `Pass auth.${key} as text, or leave it out.`);
      }
      if ((value.header as string | undefined) === '' || (value.timestampHeader as string | undefined) === '') {
        throw invalid('auth.header and auth.timestampHeader cannot be empty.', 'Name the header, e.g. x-signature-256.');
      }
      if (value.toleranceSeconds !== undefined) {
        if (value.timestampHeader === undefined) throw invalid('auth.toleranceSeconds needs auth.timestampHeader.', 'Name the header that carries the signing time, e.g. x-timestamp.');
        if (!(typeof value.toleranceSeconds === 'number' && value.toleranceSeconds > 0)) {
          throw invalid(`auth.toleranceSeconds must be a positive number of seconds, got ${String(value.toleranceSeconds)}.`, 'Leave it out for 300 seconds.');
        }
      }
      return;
    }
    case 'bearer':
      if (typeof value.token !== 'string' || value.token === '') {
        throw invalid('auth.token is empty: any request without a token would be let in.', 'Set the token (e.g. from WEBHOOK_TOKEN) before starting the webhook.');
      }
      return;
    case 'custom':
      if (typeof value.verify !== 'function') throw invalid('auth.verify must be a function returning true to accept a request.', 'Pass verify: (req) => req.headers["x-api-key"] === process.env.API_KEY.');
      return;
    default:
      throw invalid(`auth.type must be 'hmac', 'bearer' or 'custom', got ${JSON.stringify(value.type)}.`, "Use { type: 'hmac', secret } for signed webhooks.");
  }
}

function header(req: WebhookRequest, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Builds the check for one `auth` option. Signatures and tokens are compared in constant time.
 * With `timestampHeader`, a request outside the tolerance window is refused, and so is a signed
 * request seen before inside the window (kept in a bounded in-memory cache).
 */
export function createWebhookAuthenticator<TBody extends Uint8Array>(
  auth: WebhookAuth<TBody>,
  options: WebhookAuthOptions = {},
): (req: WebhookRequest<TBody>) => Promise<WebhookAuthResult> {
  checkWebhookAuth(auth);
  if (auth.type === 'bearer') {
    const expected = auth.token;
    return async (req) => {
      const value = header(req, 'authorization');
      const match = value === undefined ? null : /^Bearer\s+(.+)$/i.exec(value.trim());
      if (!match) return { ok: false, reason: 'missing bearer token' };
      return (await equalSecrets(match[1]!, expected)) ? { ok: true } : { ok: false, reason: 'bearer token does not match' };
    };
  }
  if (auth.type === 'custom') {
    const verify = auth.verify;
    return async (req) => {
      try {
        return (await verify(req)) === true ? { ok: true } : { ok: false, reason: 'custom verify refused the request' };
      } catch {
        return { ok: false, reason: 'custom verify threw' };
      }
    };
  }
  const algorithm = auth.algorithm ?? 'sha256';
  const signatureHeader = (auth.header ?? 'x-signature-256').toLowerCase();
  const prefix = auth.prefix ?? `${algorithm}=`;
  const timestampHeader = auth.timestampHeader?.toLowerCase();
  const toleranceMs = (auth.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS) * 1000;
  if (options.replayStore !== undefined && typeof (options.replayStore as Partial<ReplayStore> | null)?.claim !== 'function') {
    throw invalid('replayStore must have a claim(key, expiresAt) method.', 'Pass store.replays of a SqliteStore or PostgresStore, or leave it out for memory.');
  }
  if (options.replayStore !== undefined && options.replayCacheSize !== undefined) {
    throw invalid('replayCacheSize sizes the in-memory replay cache; it does not apply with replayStore.', 'Give one of them.');
  }
  const seen: ReplayStore = options.replayStore ?? new MemoryReplayStore(options.replayCacheSize ?? DEFAULT_REPLAY_CACHE_SIZE);
  const secret = auth.secret;
  return async (req) => {
    const given = header(req, signatureHeader);
    if (given === undefined) return { ok: false, reason: `missing ${signatureHeader} header` };
    const digest = given.trim().startsWith(prefix) ? fromHex(given.trim().slice(prefix.length)) : undefined;
    if (!digest) return { ok: false, reason: `malformed ${signatureHeader} header (expected ${prefix ? `'${prefix}' and ` : ''}a hex digest)` };
    let signed: Uint8Array<ArrayBuffer> = concatBytes([req.rawBody]);
    let timestampMs: number | undefined;
    if (timestampHeader) {
      const stamp = header(req, timestampHeader)?.trim();
      if (stamp === undefined) return { ok: false, reason: `missing ${timestampHeader} header` };
      if (!/^\d{1,12}$/.test(stamp)) return { ok: false, reason: `malformed ${timestampHeader} header (expected Unix seconds)` };
      timestampMs = Number(stamp) * 1000;
      const age = Date.now() - timestampMs;
      if (Math.abs(age) > toleranceMs) return { ok: false, reason: `timestamp outside the ${toleranceMs / 1000} s tolerance (${Math.round(age / 1000)} s old)` };
      signed = concatBytes([utf8(`${stamp}.`), req.rawBody]);
    }
    const expected = await hmac(algorithm, secret, signed);
    if (!equalBytes(digest, expected)) return { ok: false, reason: 'signature does not match' };
    if (timestampMs !== undefined) {
      // Only authentic requests reach the cache, so it cannot be filled by strangers.
      let fresh: boolean;
      try {
        fresh = await seen.claim(toHex(expected), timestampMs + toleranceMs);
      } catch {
        // Fails closed: a request that cannot be checked for a replay is not let in.
        return { ok: false, reason: 'the replay store could not be reached' };
      }
      if (!fresh) return { ok: false, reason: 'replayed request (this signature was already accepted)' };
    }
    return { ok: true };
  };
}
