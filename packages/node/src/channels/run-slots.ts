import { ERROR_CODES, SDKError } from '@lousho/core';

/** Runs `mountChannels()`, a webhook or a Slack trigger has in progress at once, by default; past it a request is answered 429. */
export const DEFAULT_MAX_CONCURRENT_RUNS = 16;
/** What a 429 answer's `Retry-After` says, in seconds, by default. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

/** Options every request-driven entry point (channels, webhook and Slack triggers) takes to bound the runs it starts. */
export interface ConcurrencyOptions {
  /**
   * Most runs in progress at once (default 16). A request that would start one more is answered
   * `429 Too Many Requests` with `Retry-After` and code LOUSHO_TRIGGER_BUSY, and nothing runs.
   */
  maxConcurrentRuns?: number;
  /** The `Retry-After` of that answer, in seconds (default 5). */
  retryAfterSeconds?: number;
}

/** The 429 answer of a full {@link RunSlots}, as status, headers and JSON body (each server writes it its own way). */
export interface BusyAnswer {
  /** Always 429 Too Many Requests. */
  status: 429;
  /** `retry-after`, in seconds. */
  headers: Record<string, string>;
  /** The error, with code LOUSHO_TRIGGER_BUSY. */
  body: { error: { code: string; message: string } };
}

/**
 * A count of runs in progress, with a ceiling: `take()` gives a release function, or undefined when
 * full. One implementation for `mountChannels()` and `@lousho/triggers`' webhook and Slack triggers.
 */
export class RunSlots {
  #active = 0;
  /** The ceiling (`maxConcurrentRuns`). */
  readonly max: number;
  /** The `Retry-After` of the 429 answer, in seconds. */
  readonly retryAfterSeconds: number;

  /** `owner` prefixes a configuration error's message (e.g. `mountChannels`). */
  constructor(options: ConcurrencyOptions, owner?: string) {
    this.max = positiveInteger(owner, 'maxConcurrentRuns', options.maxConcurrentRuns, DEFAULT_MAX_CONCURRENT_RUNS);
    this.retryAfterSeconds = positiveInteger(owner, 'retryAfterSeconds', options.retryAfterSeconds, DEFAULT_RETRY_AFTER_SECONDS);
  }

  /** Runs in progress now. */
  get active(): number {
    return this.#active;
  }

  /** Takes a place: the function gives it back (once, however often it is called); undefined when full. */
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

  /** The 429 answer; `what` names who is full, e.g. `webhook channel` or `Slack trigger`. */
  busy(what: string): BusyAnswer {
    return {
      status: 429,
      headers: { 'retry-after': String(this.retryAfterSeconds) },
      body: { error: { code: ERROR_CODES.LOUSHO_TRIGGER_BUSY, message: `The ${what} is running ${this.max} runs (maxConcurrentRuns); try again in ${this.retryAfterSeconds} s.` } },
    };
  }
}

function positiveInteger(owner: string | undefined, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${owner ? `${owner}: ` : ''}${name} must be a positive integer, got ${String(value)}.`, { hint: `Leave it out for ${fallback}.` });
}
