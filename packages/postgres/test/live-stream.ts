/** What the PostgreSQL fault tests use to watch streams while they break things. */
import { expect } from 'vitest';
import type { AgentStreamEvent } from '@lousho/core';
import { createEventStreamDecoder } from '@lousho/core';
import { replayAfter } from '@lousho/core';
import { plain } from '@lousho/test-kit/http';

/** An SSE response read in the background: its events so far, and a promise of its end. */
export interface LiveStream {
  status: number;
  events: AgentStreamEvent[];
  /** The raw text so far (to check the wire form, e.g. that a frame has no `id:`). */
  raw: string;
  /** Resolves when the stream ends (or breaks: then `broken` says how). */
  done: Promise<void>;
  broken?: unknown;
}

/** Opens `url` and reads its event stream in the background; a non-2xx answer is read as JSON into `body`. */
export async function openStream(url: string, init?: RequestInit): Promise<LiveStream & { body?: unknown }> {
  const response = await fetch(url, init);
  const live: LiveStream & { body?: unknown } = { status: response.status, events: [], raw: '', done: Promise.resolve() };
  if (!response.ok) {
    live.body = await response.json().catch(() => undefined);
    return live;
  }
  const decoder = createEventStreamDecoder((event) => live.events.push(event));
  const reader = response.body!.getReader();
  const text = new TextDecoder();
  live.done = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        live.raw += text.decode(value, { stream: true });
        decoder.push(value);
      }
      decoder.end();
    } catch (error) {
      live.broken = error;
    }
  })();
  return live;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` (sync or async) every 50 ms until it holds; fails with `what` after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // Not yet (e.g. the database is still starting).
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await sleep(50);
  }
}

/** Resolves with `promise`, or fails naming `what` after `timeoutMs`. */
export async function within<T>(promise: Promise<T>, what: string, timeoutMs = 30_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`)), timeoutMs))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const DELTAS = new Set(['text.delta', 'reasoning.delta', 'tool.input.delta']);

/**
 * Every numbered event a client was sent is the event the store holds under that number: the
 * stored log (`stored`, compacted or not, from its first event) replayed from just before it
 * starts with that very event (for a delta of a merged stretch: with that delta's text).
 */
export function expectSentAsStored(sent: readonly AgentStreamEvent[], stored: readonly AgentStreamEvent[]): void {
  const first = stored[0] as (AgentStreamEvent & { fromSeq?: number }) | undefined;
  const firstSeq = first ? (first.fromSeq ?? first.seq) : Infinity;
  for (const event of sent) {
    if (typeof event.seq !== 'number' || event.seq < firstSeq) continue;
    const from = ('fromSeq' in event && typeof event.fromSeq === 'number' ? event.fromSeq : event.seq) - 1;
    const replayed = replayAfter(stored, from)[0] as (AgentStreamEvent & { delta?: string }) | undefined;
    expect(replayed, `the store has no event ${event.seq}`).toBeDefined();
    if (DELTAS.has(event.type)) {
      const { delta, fromSeq: _a, seq: _b, ...rest } = event as AgentStreamEvent & { delta: string; fromSeq?: number };
      const { delta: storedDelta, fromSeq: _c, seq: _d, ...storedRest } = replayed as AgentStreamEvent & { delta: string; fromSeq?: number };
      expect(plain(storedRest), `event ${event.seq}`).toEqual(plain(rest));
      expect(storedDelta.startsWith(delta), `event ${event.seq}: stored "${storedDelta}" does not start with sent "${delta}"`).toBe(true);
    } else {
      expect(plain(replayed), `event ${event.seq}`).toEqual(plain(event));
    }
  }
}
