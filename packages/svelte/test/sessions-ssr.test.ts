// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { get } from 'svelte/store';
import { loushoAgent } from '../src/index.js';
import { loushoSessions } from '../src/sessions/index.js';

describe('loushoSessions on the server', () => {
  it('reads the value without fetching anything', async () => {
    const fetchSpy = vi.fn<typeof fetch>();
    const source = { url: 'http://example.test/api/agent', fetch: fetchSpy };
    const threads = loushoSessions(source, loushoAgent(source));
    expect(get(threads)).toEqual({ sessions: [], status: 'idle', error: null, hasMore: false, current: undefined });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
