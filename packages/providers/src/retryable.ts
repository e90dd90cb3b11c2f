/**
 * Which provider failures are worth another try. Shared by withRetry() (same provider again) and
 * withFallback() callers that want the same judgement.
 */
import { isAbortError } from './abort.js';

/**
 * True for failures a later attempt may not hit: rate limits (429), server errors (5xx), lost
 * connections and cut streams. False for aborts, every other 4xx, malformed responses and bugs.
 * Errors that say so themselves (a boolean `retryable`, as all provider errors here have) decide;
 * errors from other clients are judged by a numeric `status`, and a bare `TypeError` is how
 * `fetch` reports a network failure.
 */
export function isRetryableError(error: unknown): boolean {
  if (isAbortError(error)) return false;
  if (typeof error !== 'object' || error === null) return false;
  const { retryable, status } = error as { retryable?: unknown; status?: unknown };
  if (typeof retryable === 'boolean') return retryable;
  if (typeof status === 'number') return status === 429 || status >= 500;
  return error instanceof TypeError;
}

/** The wait the provider asked for (`retryAfterMs` on provider errors), if any. */
export function retryAfterOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const value = (error as { retryAfterMs?: unknown }).retryAfterMs;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
