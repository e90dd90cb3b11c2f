import { UnknownOptionError } from '@lousho/core';
import { invalidConfig } from './config-error.js';

/** Options of `createAgUiHandler()` and `createAiSdkHandler()`: who may use the endpoint, and its limits. */
export interface AgUiHandlerOptions {
  /**
   * Who is asking: a principal id, or null to answer 401. A thread belongs to the principal that
   * started it; another principal's thread is answered as unknown. Default: every request is
   * `anonymous` (the thread id is then all that protects a thread).
   */
  authorize?: (request: Request) => string | null | undefined | Promise<string | null | undefined>;
  /** Largest request body, in bytes (default 1 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** Most messages a request may carry (default 1,000). */
  maxMessages?: number;
  /** Unexpected failures (answered without details): log them here. */
  onError?: (error: unknown, request: Request) => void;
}

const KEYS: Readonly<Record<keyof AgUiHandlerOptions, true>> = { authorize: true, maxBodyBytes: true, maxMessages: true, onError: true };

/** Refuses unknown keys (`LOUSHO_UNKNOWN_OPTION`) and values of the wrong kind (`LOUSHO_INVALID_CONFIG`). */
export function checkAgUiOptions(where: string, options: AgUiHandlerOptions): void {
  if (typeof options !== 'object' || options === null) throw invalidConfig(`${where} options must be an object.`);
  for (const key of Object.keys(options)) {
    if (!(key in KEYS)) throw new UnknownOptionError(where, key, closest(key), undefined);
  }
  for (const key of ['maxBodyBytes', 'maxMessages'] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw invalidConfig(`${where} option \`${key}\` must be a positive integer.`);
  }
  for (const key of ['authorize', 'onError'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function') throw invalidConfig(`${where} option \`${key}\` must be a function.`);
  }
}

/** The known option a mistyped key most likely meant (same letters, any case). */
function closest(key: string): string | undefined {
  const lower = key.toLowerCase();
  return Object.keys(KEYS).find((known) => known.toLowerCase() === lower || known.toLowerCase().startsWith(lower.slice(0, 5)));
}
