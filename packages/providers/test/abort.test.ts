import { describe, expect, it } from 'vitest';
import { abortError, isAbortError, sleep, throwIfAborted } from '../src/index.js';

describe('abortError', () => {
  it('is a DOMException named AbortError that keeps the reason as cause', () => {
    const reason = new Error('user pressed stop');
    const err = abortError(reason);
    expect(err).toBeInstanceOf(DOMException);
    expect(err.name).toBe('AbortError');
    expect(err.message).toContain('user pressed stop');
    expect((err as { cause?: unknown }).cause).toBe(reason);
  });

  it('returns an existing AbortError unchanged', () => {
    const controller = new AbortController();
    controller.abort();
    expect(abortError(controller.signal.reason)).toBe(controller.signal.reason);
  });

  it('works without a reason', () => {
    const err = abortError();
    expect(err.name).toBe('AbortError');
    expect(err.message).toBe('The operation was aborted.');
  });
});

describe('throwIfAborted', () => {
  it('does nothing for a missing or live signal', () => {
    expect(() => throwIfAborted(undefined)).not.toThrow();
    expect(() => throwIfAborted(new AbortController().signal)).not.toThrow();
  });

  it('throws an AbortError for an aborted signal, including a timeout reason', () => {
    const controller = new AbortController();
    controller.abort('stop');
    expect(() => throwIfAborted(controller.signal)).toThrow(expect.objectContaining({ name: 'AbortError' }));
    const timedOut = new AbortController();
    timedOut.abort(new DOMException('signal timed out', 'TimeoutError'));
    let caught: unknown;
    try {
      throwIfAborted(timedOut.signal);
    } catch (err) {
      caught = err;
    }
    expect(isAbortError(caught)).toBe(true);
    expect((caught as Error).name).toBe('AbortError');
  });
});

describe('isAbortError', () => {
  it('recognises AbortError and TimeoutError only', () => {
    expect(isAbortError(abortError())).toBe(true);
    expect(isAbortError(new DOMException('x', 'TimeoutError'))).toBe(true);
    expect(isAbortError(Object.assign(new Error('x'), { name: 'AbortError' }))).toBe(true);
    expect(isAbortError(new Error('boom'))).toBe(false);
    expect(isAbortError('AbortError')).toBe(false);
    expect(isAbortError(null)).toBe(false);
  });
});

describe('sleep', () => {
  it('resolves after the delay', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
  });

  it('rejects at once for an already-aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sleep(60_000, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects promptly when aborted mid-wait (a long timer would time the test out)', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('cancelled by test'));
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError', message: expect.stringContaining('cancelled by test') });
  });
});
