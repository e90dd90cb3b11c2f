/**
 * withRetry(): the same provider again after a transient failure, with exponential backoff and
 * jitter. A retry happens only while nothing has been streamed: once a chunk reached the caller
 * (and maybe a person's screen), repeating the call would show the answer twice.
 */
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { isAbortError, sleep } from './abort.js';
import { isRetryableError, retryAfterOf } from './retryable.js';
import type { GenerateOptions, GenerateResult, LLMProvider, StreamChunk } from '@lousho/protocol';

/** Options of `withRetry()`: how many attempts, how long to wait, which failures to retry. */
export interface RetryOptions {
  /** Retries after the first attempt (default 2, so at most 3 calls). */
  retries?: number;
  /** Delay before the first retry, in ms (default 500); it doubles on each retry. */
  minDelayMs?: number;
  /** Upper bound of the backoff, in ms (default 10,000). */
  maxDelayMs?: number;
  /**
   * Randomness that spreads out clients retrying together: the share of each delay that may be
   * shaved off at random (0 to 1). `true` (the default) is 0.5, `false` is 0.
   */
  jitter?: boolean | number;
  /**
   * Longest wait a `Retry-After` may ask for, in ms (default 60,000). A provider asking for more
   * (e.g. a quota that resets in an hour) fails at once instead of hanging the run.
   */
  maxRetryAfterMs?: number;
  /** Decides which errors are retried (default: isRetryableError). Aborts are never retried. */
  shouldRetry?: (error: unknown) => boolean;
  /** Called before each wait, e.g. to log it. */
  onRetry?: (info: { attempt: number; error: unknown; delayMs: number }) => void;
  /** Source of randomness for the jitter (default Math.random). */
  random?: () => number;
}

interface RetryPlan {
  retries: number;
  minDelayMs: number;
  maxDelayMs: number;
  jitter: number;
  maxRetryAfterMs: number;
  shouldRetry: (error: unknown) => boolean;
  onRetry: RetryOptions['onRetry'];
  random: () => number;
}

/**
 * Wraps `provider` so transient failures (429, 5xx, network errors, cut streams) are retried with
 * backoff, waiting at least as long as a `Retry-After` header asks. Never retried: an abort, any
 * other 4xx, or a call that already streamed a chunk. The wrapper keeps the provider's name and
 * default model.
 */
export function withRetry(provider: LLMProvider, options: RetryOptions = {}): LLMProvider {
  const plan = planOf(options);
  const wrapped: LLMProvider = {
    name: provider.name,
    ...(provider.defaultModel !== undefined ? { defaultModel: provider.defaultModel } : {}),
    stream: (request) => retryStream(provider, request, plan),
  };
  const generate = provider.generate?.bind(provider);
  if (generate) wrapped.generate = (request) => retryGenerate(generate, request, plan);
  return wrapped;
}

async function* retryStream(provider: LLMProvider, request: GenerateOptions, plan: RetryPlan): AsyncGenerator<StreamChunk> {
  for (let attempt = 1; ; attempt++) {
    let streamed = false;
    try {
      for await (const chunk of provider.stream(request)) {
        streamed = true;
        yield chunk;
      }
      return;
    } catch (error) {
      if (streamed) throw error;
      await waitBeforeRetry(error, attempt, request.signal, plan);
    }
  }
}

async function retryGenerate(
  generate: (request: GenerateOptions) => Promise<GenerateResult>,
  request: GenerateOptions,
  plan: RetryPlan,
): Promise<GenerateResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await generate(request);
    } catch (error) {
      await waitBeforeRetry(error, attempt, request.signal, plan);
    }
  }
}

/** Rethrows `error` when it must not be retried; otherwise waits the backoff (abortably). */
async function waitBeforeRetry(error: unknown, attempt: number, signal: AbortSignal | undefined, plan: RetryPlan): Promise<void> {
  if (signal?.aborted || isAbortError(error)) throw error;
  if (attempt > plan.retries || !plan.shouldRetry(error)) throw error;
  const delayMs = retryDelay(error, attempt, plan);
  if (delayMs === undefined) throw error;
  plan.onRetry?.({ attempt, error, delayMs });
  await sleep(delayMs, signal);
}

/** Backoff for retry number `attempt` (1-based), or undefined when Retry-After asks too much. */
function retryDelay(error: unknown, attempt: number, plan: RetryPlan): number | undefined {
  const backoff = Math.min(plan.maxDelayMs, plan.minDelayMs * 2 ** (attempt - 1));
  const jittered = backoff * (1 - plan.jitter * plan.random());
  const asked = retryAfterOf(error);
  if (asked === undefined) return Math.round(jittered);
  if (asked > plan.maxRetryAfterMs) return undefined;
  return Math.round(Math.max(jittered, asked));
}

function planOf(options: RetryOptions): RetryPlan {
  const retries = options.retries ?? 2;
  const minDelayMs = options.minDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const jitter = options.jitter === undefined || options.jitter === true ? 0.5 : options.jitter === false ? 0 : options.jitter;
  check(Number.isInteger(retries) && retries >= 0, `retries must be a whole number >= 0, got ${String(retries)}`);
  check(Number.isFinite(minDelayMs) && minDelayMs >= 0, `minDelayMs must be a number >= 0, got ${String(minDelayMs)}`);
  check(Number.isFinite(maxDelayMs) && maxDelayMs >= minDelayMs, `maxDelayMs must be a number >= minDelayMs, got ${String(maxDelayMs)}`);
  check(maxRetryAfterMs >= 0, `maxRetryAfterMs must be >= 0, got ${String(maxRetryAfterMs)}`);
  check(Number.isFinite(jitter) && jitter >= 0 && jitter <= 1, `jitter must be a boolean or a number from 0 to 1, got ${String(options.jitter)}`);
  return {
    retries,
    minDelayMs,
    maxDelayMs,
    jitter,
    maxRetryAfterMs,
    shouldRetry: options.shouldRetry ?? isRetryableError,
    onRetry: options.onRetry,
    random: options.random ?? Math.random,
  };
}

function check(ok: boolean, problem: string): void {
  if (!ok) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `withRetry(): ${problem}.`, { hint: 'Fix the retry options.' });
}
