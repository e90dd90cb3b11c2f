import { ERROR_CODES, SDKError } from '../errors.js';
import { errorJson } from './mount-channels.js';

/** Runs `mountChannels()` has in progress at once, by default (as the webhook and Slack triggers); past it a request is answered 429. */
export const DEFAULT_MAX_CONCURRENT_RUNS = 16;
/** What a 429 answer's `Retry-After` says, in seconds, by default. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

/** A count of runs in progress, with a ceiling: `take()` gives a release function, or undefined when full. */
export class RunSlots {
  #active = 0;
  readonly max: number;
  readonly retryAfterSeconds: number;

  constructor(options: { maxConcurrentRuns?: number; retryAfterSeconds?: number }) {
    this.max = positiveInteger('maxConcurrentRuns', options.maxConcurrentRuns, DEFAULT_MAX_CONCURRENT_RUNS);
    this.retryAfterSeconds = positiveInteger('retryAfterSeconds', options.retryAfterSeconds, DEFAULT_RETRY_AFTER_SECONDS);
  }

  take(): (() => void) | undefined {
    if (this.#active >= this.max) return undefined;
    this.#active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
    };
  }

  /** The 429 answer, with `Retry-After` and code LOUSHO_TRIGGER_BUSY (the triggers' code and words). */
  busy(channel: string): Response {
    const response = errorJson(429, ERROR_CODES.LOUSHO_TRIGGER_BUSY, `The ${channel} channel is running ${this.max} runs (maxConcurrentRuns); try again in ${this.retryAfterSeconds} s.`);
    response.headers.set('retry-after', String(this.retryAfterSeconds));
    return response;
  }
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `mountChannels: ${name} must be a positive integer, got ${String(value)}.`, { hint: `Leave it out for ${fallback}.` });
}
