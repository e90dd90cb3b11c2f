import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepThreadsFresh, threadItemAttributes, threadOrigin, threadRowLabels, THREAD_LIST_REFRESH_MS, type ThreadSummary } from '../src/display/threads.js';

const thread = (id: string, extra: Partial<ThreadSummary> = {}): ThreadSummary => ({ id, title: null, status: 'idle', createdAt: 1, updatedAt: 2, usage: null, ...extra });

describe('the thread sidebar rows', () => {
  it('read where a thread came from off the id prefix the triggers use', () => {
    expect(threadOrigin('webhook-3f2a')).toBe('webhook');
    expect(threadOrigin('cron-77')).toBe('cron');
    expect(threadOrigin('slack:C1:1700.1')).toBe('slack');
    expect(threadOrigin('sess_abc')).toBe('chat');
    // Only a prefix counts: an id that merely contains the word is a chat.
    expect(threadOrigin('my-webhook-1')).toBe('chat');
  });

  it('title a thread by its title, else by what started it; say its state and usage', () => {
    expect(threadRowLabels(thread('sess_1', { title: 'Weather in Oslo', status: 'running' }))).toEqual({ origin: 'Chat', title: 'Weather in Oslo', state: 'Running', usage: '' });
    expect(threadRowLabels(thread('webhook-1', { status: 'awaiting-approval' }))).toMatchObject({ origin: 'Webhook', title: 'Webhook run', state: 'Waiting for approval' });
    expect(threadRowLabels(thread('cron-1', { title: '   ' })).title).toBe('Scheduled run');
    expect(threadRowLabels(thread('s', { status: 'interrupted' })).state).toBe('Interrupted');
    expect(threadRowLabels(thread('s', { usage: { inputTokens: 900, outputTokens: 50, totalTokens: 950 } })).usage).toBe('950 tokens');
    expect(threadRowLabels(thread('s', { usage: { inputTokens: 12_000, outputTokens: 345, totalTokens: 12_345, costUsd: 0.0421 } })).usage).toBe('12k tokens · $0.04');
    expect(threadRowLabels(thread('s', { usage: { inputTokens: 1500, outputTokens: 0, totalTokens: 1500, costUsd: 0.0012 } })).usage).toBe('1.5k tokens · $0.0012');
    expect(threadRowLabels(thread('s', { usage: { inputTokens: 2_000_000, outputTokens: 100_000, totalTokens: 2_100_000 } })).usage).toBe('2.1M tokens');
  });

  it('mark the opened thread aria-current="page" and carry what the browser tests find rows by', () => {
    expect(threadItemAttributes(thread('webhook-9', { status: 'running' }), 'webhook-9')).toEqual({
      'data-testid': 'thread-item',
      'data-session-id': 'webhook-9',
      'data-origin': 'webhook',
      'data-status': 'running',
      'aria-current': 'page',
    });
    expect(threadItemAttributes(thread('a'), 'b')['aria-current']).toBeUndefined();
    expect(threadItemAttributes(thread('a'), undefined)['aria-current']).toBeUndefined();
  });
});

describe('keepThreadsFresh', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('reads the list again while the page is shown, not while it is hidden, and stops when told', () => {
    vi.useFakeTimers();
    const doc = { visibilityState: 'visible' };
    vi.stubGlobal('document', doc);
    const refresh = vi.fn();
    const stop = keepThreadsFresh(refresh);
    vi.advanceTimersByTime(THREAD_LIST_REFRESH_MS * 2);
    expect(refresh).toHaveBeenCalledTimes(2);
    doc.visibilityState = 'hidden';
    vi.advanceTimersByTime(THREAD_LIST_REFRESH_MS * 3);
    expect(refresh).toHaveBeenCalledTimes(2);
    doc.visibilityState = 'visible';
    stop();
    vi.advanceTimersByTime(THREAD_LIST_REFRESH_MS * 3);
    expect(refresh).toHaveBeenCalledTimes(2);
  });
});
