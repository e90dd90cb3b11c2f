import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ERROR_CODES, SDKError, serializeError, truncateMessage, TRUNCATION_MARKER, stripStackFrames } from '@lousho/protocol';

describe('SDKError', () => {
  test('carries a stable code, a hint, a docs link and an optional cause', () => {
    const cause = new TypeError('boom');
    const err = new SDKError(ERROR_CODES.LOUSHO_DUPLICATE_TOOL, 'Two tools are named x.', { hint: 'Rename one.', cause });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('SDKError');
    expect(err.code).toBe('LOUSHO_DUPLICATE_TOOL');
    expect(err.hint).toBe('Rename one.');
    expect(err.docs).toBe('https://lousho.com/errors#lousho-duplicate-tool');
    expect(err.cause).toBe(cause);
    expect(err.message).toBe('Two tools are named x.');
  });

  test('docs can be overridden and cause is absent when not given', () => {
    const err = new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, 'bad', { docs: 'https://lousho.com/approvals#x' });
    expect(err.docs).toBe('https://lousho.com/approvals#x');
    expect('cause' in err).toBe(false);
    expect(err.hint).toBe('');
  });

  test('subclasses are recognised by SDKError.is, and so are errors from another copy of the package', () => {
    class MyError extends SDKError {}
    expect(SDKError.is(new MyError(ERROR_CODES.LOUSHO_INTERNAL, 'x'))).toBe(true);
    const foreign = Object.assign(new Error('x'), { code: 'LOUSHO_INTERNAL', [Symbol.for('lousho.sdkError')]: true });
    expect(SDKError.is(foreign)).toBe(true);
    expect(SDKError.is(Object.assign(new Error('x'), { code: 'LOUSHO_INTERNAL' }))).toBe(false);
  });
});

describe('ERROR_CODES', () => {
  test('is one flat object whose values equal their keys', () => {
    for (const [key, value] of Object.entries(ERROR_CODES)) {
      expect(value).toBe(key);
      expect(key).toMatch(/^LOUSHO_[A-Z_]+$/);
    }
    for (const code of [
      'LOUSHO_INVALID_TOOL_DEFINITION',
      'LOUSHO_DUPLICATE_TOOL',
      'LOUSHO_CONFIG_RESOLVER_FAILED',
      'LOUSHO_APPROVAL_NOT_FOUND',
      'LOUSHO_APPROVAL_NOT_PENDING',
      'LOUSHO_APPROVAL_KIND_MISMATCH',
      'LOUSHO_SESSION_AWAITING_APPROVAL',
      'LOUSHO_SESSION_BUSY',
      'LOUSHO_PROVIDER_ERROR',
      'LOUSHO_MOCK_EXHAUSTED',
      'LOUSHO_INVALID_INPUT',
      'LOUSHO_INTERNAL',
    ]) {
      expect(ERROR_CODES).toHaveProperty(code, code);
    }
  });
});

describe('serializeError', () => {
  test('an SDK error keeps its code and message, and nothing else', () => {
    const err = new SDKError(ERROR_CODES.LOUSHO_SESSION_BUSY, 'Session s1 is busy.', { hint: 'wait' });
    expect(serializeError(err)).toEqual({ code: 'LOUSHO_SESSION_BUSY', message: 'Session s1 is busy.' });
  });

  test('an unknown error becomes LOUSHO_INTERNAL with name and message', () => {
    expect(serializeError(new TypeError('x is not a function'))).toEqual({ code: 'LOUSHO_INTERNAL', message: 'TypeError: x is not a function' });
    expect(serializeError(new RangeError(''))).toEqual({ code: 'LOUSHO_INTERNAL', message: 'RangeError' });
  });

  test('non-Error throws still give a readable message', () => {
    expect(serializeError('plain string')).toEqual({ code: 'LOUSHO_INTERNAL', message: 'plain string' });
    expect(serializeError({ status: 500 })).toEqual({ code: 'LOUSHO_INTERNAL', message: '{"status":500}' });
    expect(serializeError(undefined)).toEqual({ code: 'LOUSHO_INTERNAL', message: 'undefined' });
    expect(serializeError(null)).toEqual({ code: 'LOUSHO_INTERNAL', message: 'null' });
    expect(serializeError(42)).toEqual({ code: 'LOUSHO_INTERNAL', message: '42' });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(serializeError(cyclic)).toEqual({ code: 'LOUSHO_INTERNAL', message: '[object Object]' });
  });

  test('never includes a stack, even one pasted into the message', () => {
    const inner = new Error('db down');
    const wrapped = new Error(`query failed: ${inner.stack}`);
    const out = serializeError(wrapped);
    expect(Object.keys(out).sort()).toEqual(['code', 'message']);
    expect(out.message).toContain('query failed: Error: db down');
    expect(out.message).not.toMatch(/\n\s+at /);
    expect(JSON.stringify(serializeError(new SDKError('LOUSHO_INTERNAL', `x\n${inner.stack}`)))).not.toContain('    at ');
  });

  test('long messages are capped', () => {
    const out = serializeError(new Error('y'.repeat(10_000)));
    expect(out.message.length).toBe(2000);
    expect(out.message.endsWith(TRUNCATION_MARKER)).toBe(true);
  });
});

describe('truncateMessage', () => {
  test('the cap includes the marker', () => {
    expect(truncateMessage('a'.repeat(2000))).toBe('a'.repeat(2000));
    const cut = truncateMessage('a'.repeat(2001));
    expect(cut).toHaveLength(2000);
    expect(cut).toBe('a'.repeat(2000 - TRUNCATION_MARKER.length) + '... (truncated)');
  });

  test('never exceeds the cap, keeps short text, and never splits a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer({ min: 20, max: 200 }), (text, max) => {
        const out = truncateMessage(text, max);
        expect(out.length).toBeLessThanOrEqual(Math.max(max, 0));
        if (text.length <= max) expect(out).toBe(text);
        else {
          expect(out.endsWith(TRUNCATION_MARKER)).toBe(true);
          const kept = out.slice(0, -TRUNCATION_MARKER.length);
          expect(text.startsWith(kept)).toBe(true);
          expect(kept).not.toMatch(/[\uD800-\uDBFF]$/);
        }
      }),
    );
  });
});

describe('stripStackFrames', () => {
  test('drops V8 and Firefox frame lines but keeps ordinary lines starting with "at"', () => {
    const text = 'failed\n    at run (/app/x.js:10:5)\n    at <anonymous>\nrun@http://x/app.js:1:2\nat least one item is required';
    expect(stripStackFrames(text)).toBe('failed\nat least one item is required');
  });
});
