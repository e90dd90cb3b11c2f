/**
 * Cancellation helpers shared by providers and the agent loop. They only use web globals
 * (DOMException, setTimeout, AbortSignal), so they run the same in Node, browsers and workers.
 */

/**
 * The error a cancelled operation rejects with: a `DOMException` named `AbortError`, the same
 * shape `fetch` uses. A reason that already is an AbortError is returned as is (so the caller's
 * own error object survives); any other reason is kept as `cause`.
 */
export function abortError(reason?: unknown): Error {
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const detail = describeReason(reason);
  const error = new DOMException(
    detail ? `The operation was aborted: ${detail}` : 'The operation was aborted.',
    'AbortError',
  );
  if (reason !== undefined) {
    Object.defineProperty(error, 'cause', { value: reason, configurable: true, writable: true });
  }
  return error;
}

/** Throws an AbortError when `signal` has been aborted; does nothing otherwise. */
export function throwIfAborted(signal: AbortSignal | undefined | null): void {
  if (signal?.aborted) throw abortError(signal.reason);
}

/**
 * True for errors that mean "cancelled": an `AbortError` from any source, or the `TimeoutError`
 * that `AbortSignal.timeout()` aborts with (fetch rejects with it as is).
 */
export function isAbortError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const name = (err as { name?: unknown }).name;
  return name === 'AbortError' || name === 'TimeoutError';
}

/**
 * Resolves after `ms` milliseconds; rejects with an AbortError as soon as `signal` aborts (or at
 * once when it already has). The timer and the listener are always cleaned up.
 */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal.reason));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function describeReason(reason: unknown): string {
  if (reason === undefined || reason === null) return '';
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error || (typeof reason === 'object' && 'message' in reason)) {
    const message = (reason as { message?: unknown }).message;
    return typeof message === 'string' ? message : '';
  }
  return String(reason);
}
