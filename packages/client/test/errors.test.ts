import { describe, expect, it } from 'vitest';
import { SDKError } from '@lousho/core';
import { AgentClientError, CodedError, EventStreamError } from '../src/index.js';

describe('AgentClientError', () => {
  it('keeps its name, code and status as own properties, and its instanceof relations', () => {
    const client = new AgentClientError('LOUSHO_BAD_RESPONSE', 'HTTP 502', { status: 502 });
    expect(client).toBeInstanceOf(CodedError);
    expect(client).not.toBeInstanceOf(EventStreamError);
    expect(client).toBeInstanceOf(SDKError);
    expect(client).toMatchObject({ name: 'AgentClientError', code: 'LOUSHO_BAD_RESPONSE', status: 502, docs: 'https://lousho.com/errors#lousho-bad-response' });
    expect(client.eventId).toBeUndefined();
    expect('cause' in client).toBe(false);
  });
});
