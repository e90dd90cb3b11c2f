import { ERROR_CODES } from '@lousho/core';
import { invalidConfig } from './errors.js';

/** Runs a webhook or Slack trigger starts at once, by default; past it a request is answered 429. */
export const DEFAULT_MAX_CONCURRENT_RUNS = 16;
/** What a 429 answer's `Retry-After` says, in seconds, by default. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

/** Options every request-driven trigger takes to bound the runs it starts. */
export interface ConcurrencyOptions {
  /**
   * Most runs in progress at once (default 16). A request that would start one more is answered
   * `429 Too Many Requests` with `Retry-After` and code LOUSHO_TRIGGER_BUSY, and nothing runs.
   */
  maxConcurrentRuns?: number;
  /** The `Retry-After` of that answer, in seconds (default 5). */
  retryAfterSeconds?: number;
}

/** A count of runs in progress, with a ceiling: `take()` gives a release function, or undefined when full. */
export class RunSlots {
  #active = 0;
  readonly max: number;
  readonly retryAfterSeconds: number;

  constructor(options: ConcurrencyOptions) {
    this.max = positiveInteger('maxConcurrentRuns', options.maxConcurrentRuns, DEFAULT_MAX_CONCURRENT_RUNS);
    this.retryAfterSeconds = positiveInteger('retryAfterSeconds', options.retryAfterSeconds, DEFAULT_RETRY_AFTER_SECONDS);
  }

  get active(): number {
    return this.#active;
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

  /** The body and headers of the 429 answer. */
  busy(trigger: string): { status: 429; headers: Record<string, string>; body: { error: { code: string; message: string } } } {
    return {
      status: 429,
      headers: { 'retry-after': String(this.retryAfterSeconds) },
      body: { error: { code: ERROR_CODES.LOUSHO_TRIGGER_BUSY, message: `The ${trigger} trigger is running ${this.max} runs (maxConcurrentRuns); try again in ${this.retryAfterSeconds} s.` } },
    };
  }
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw invalidConfig(`${name} must be a positive integer, got ${String(value)}.`, `Leave it out for ${fallback}.`);
}
