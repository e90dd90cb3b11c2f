import { createHmac, timingSafeEqual } from 'node:crypto';

/** What `verifySlackSignature()` checks: the signing secret, the two Slack headers and the raw body. */
export interface VerifySlackSignatureOptions {
  /** Your app's signing secret (Basic Information → App Credentials). */
  signingSecret: string;
  /** The `X-Slack-Request-Timestamp` header (Unix seconds). */
  timestamp: string | number | undefined;
  /** The `X-Slack-Signature` header (`v0=<hex>`). */
  signature: string | undefined;
  /** The body exactly as received, before any parsing. */
  rawBody: string | Uint8Array;
}

/** Requests signed more than this long ago (or ahead) are refused, as Slack recommends. */
export const SLACK_TOLERANCE_SECONDS = 5 * 60;

/** The verdict with its reason (safe to log: never the secret or a signature). */
export function checkSlackSignature(options: VerifySlackSignatureOptions): { ok: true } | { ok: false; reason: string } {
  const { signingSecret, timestamp, signature, rawBody } = options;
  if (typeof signingSecret !== 'string' || signingSecret === '') return { ok: false, reason: 'no signing secret configured' };
  if (timestamp === undefined || timestamp === '') return { ok: false, reason: 'missing X-Slack-Request-Timestamp header' };
  const stamp = String(timestamp).trim();
  if (!/^\d{1,12}$/.test(stamp)) return { ok: false, reason: 'malformed X-Slack-Request-Timestamp header' };
  const age = Math.floor(Date.now() / 1000) - Number(stamp);
  if (Math.abs(age) > SLACK_TOLERANCE_SECONDS) return { ok: false, reason: `timestamp outside the five-minute window (${age} s old)` };
  if (signature === undefined || signature === '') return { ok: false, reason: 'missing X-Slack-Signature header' };
  const match = /^v0=([0-9a-fA-F]{64})$/.exec(signature.trim());
  if (!match) return { ok: false, reason: 'malformed X-Slack-Signature header (expected v0=<64 hex digits>)' };
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const expected = createHmac('sha256', signingSecret).update(`v0:${stamp}:`).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex')) ? { ok: true } : { ok: false, reason: 'signature does not match' };
}

/**
 * Verifies a request from Slack as Slack documents it: HMAC-SHA256 of `v0:{timestamp}:{raw body}`
 * with the signing secret, compared in constant time with `X-Slack-Signature`, and a timestamp
 * no more than five minutes away from now. Use it in your own handlers (slash commands,
 * interactivity) on the raw body.
 */
export function verifySlackSignature(options: VerifySlackSignatureOptions): boolean {
  return checkSlackSignature(options).ok;
}
