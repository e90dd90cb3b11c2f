import { describe, expect, it } from 'vitest';
import { parseRetryAfter, readApiError } from '../src/http-error.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  const headers = (values: Record<string, string>) => new Headers(values);

  it('reads seconds, an HTTP date, and prefers retry-after-ms', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now)).toBe(7000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after': '3', 'retry-after-ms': '120' }), now)).toBe(120);
  });

  it('is undefined when absent or unreadable', () => {
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after-ms': 'x', 'retry-after': '2' }), now)).toBe(2000);
  });
});

describe('readApiError', () => {
  it('reads the OpenAI, Anthropic, OpenRouter and plain shapes', () => {
    expect(readApiError('{"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}}')).toEqual({ message: 'bad key', type: 'invalid_api_key' });
    expect(readApiError('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toEqual({ message: 'Overloaded', type: 'overloaded_error' });
    expect(readApiError('{"error":{"code":402,"message":"Insufficient credits"}}')).toEqual({ message: 'Insufficient credits' });
    expect(readApiError('{"error":"model not found"}')).toEqual({ message: 'model not found' });
    expect(readApiError('{"detail":"Not Found"}')).toEqual({ message: 'Not Found' });
    expect(readApiError('upstream connect error')).toEqual({ message: 'upstream connect error' });
    expect(readApiError('')).toEqual({});
  });
});
